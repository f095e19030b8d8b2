import { chain } from './chain.js';

/** Build A's bundle: the same workflow type as workflow-b.ts, telling its runs apart by this constant. */
export const upgradeChain = chain('build-a');
