import type { Logger } from 'pino';
import { findWeed } from '../../devkit/object-store/weed-binary.js';
import {
  objectStorePortsFrom,
  startObjectStore,
  type ObjectStorePorts,
  type RunningObjectStore,
} from '../../devkit/object-store/seaweedfs.js';
import { portFree } from '../../devkit/stack/cluster/ports.js';

/**
 * Ports below Linux's ephemeral range (32768 up): a port the system hands out for `listen(0)` may be claimed
 * by one of weed's own outbound connections before weed binds it.
 */
async function freePortBlock(): Promise<ObjectStorePorts> {
  for (;;) {
    const ports = objectStorePortsFrom(20_000 + Math.floor(Math.random() * 12_000));
    const free = await Promise.all(Object.values(ports).map((port) => portFree(port)));
    if (free.every(Boolean)) return ports;
  }
}

/**
 * A SeaweedFS object store of the test's own, in `dir` on free ports: BANKFLOW_WEED or the cached build,
 * which `.ci/run` provides (scripts/seaweedfs.mjs) before the tests. Started again on other ports if a port
 * was taken between the check and weed's bind.
 */
export async function startTestObjectStore(dir: string, logger: Logger): Promise<RunningObjectStore> {
  const weed = await findWeed({ explicitPath: process.env.BANKFLOW_WEED, cacheEnv: process.env });
  for (let attempt = 1; ; attempt++) {
    try {
      return await startObjectStore({
        weed,
        dir,
        ports: await freePortBlock(),
        bucket: 'bankflow-reports',
        logger,
      });
    } catch (error) {
      if (attempt === 3 || !String(error).includes('address already in use')) throw error;
    }
  }
}
