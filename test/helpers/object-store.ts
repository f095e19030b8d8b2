import type { Logger } from 'pino';
import { findWeed } from '../../devkit/object-store/weed-binary.js';
import {
  startObjectStore,
  type ObjectStorePorts,
  type RunningObjectStore,
} from '../../devkit/object-store/seaweedfs.js';
import { freePort } from './cli.js';

/**
 * A SeaweedFS object store of the test's own, in `dir` on free ports: BANKFLOW_WEED or the cached build, which
 * `.ci/run` provides (scripts/seaweedfs.mjs) before the tests.
 */
export async function startTestObjectStore(dir: string, logger: Logger): Promise<RunningObjectStore> {
  const weed = await findWeed({ explicitPath: process.env.BANKFLOW_WEED, cacheEnv: process.env });
  const names: (keyof ObjectStorePorts)[] = [
    's3',
    's3Grpc',
    'master',
    'masterGrpc',
    'volume',
    'volumeGrpc',
    'filer',
    'filerGrpc',
    'admin',
    'adminGrpc',
  ];
  const ports = {} as ObjectStorePorts;
  for (const name of names) ports[name] = await freePort();
  return startObjectStore({ weed, dir, ports, bucket: 'bankflow-reports', logger });
}
