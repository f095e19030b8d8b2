import { chain } from './chain.js';

/** Build B's bundle: the same workflow type as workflow-a.ts, telling its runs apart by this constant. */
export const upgradeChain = chain('build-b');
