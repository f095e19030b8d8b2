import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  findWeed,
  seaweedfsVersion,
  weedCacheDir,
  WeedNotFoundError,
} from '../../devkit/object-store/weed-binary.js';
import { tempDirs } from '../helpers/temp-dirs.js';

function fakeWeed(dir: string, versionLine = 'version 30GB 4.53  linux amd64'): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'weed');
  writeFileSync(file, `#!/bin/sh\necho "${versionLine}"\n`);
  chmodSync(file, 0o755);
  return file;
}

const tmp = tempDirs('bankflow-weed-');
const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

describe("finding SeaweedFS's weed", () => {
  it('prefers BANKFLOW_WEED over the cache, and refuses one that is not weed', async () => {
    const cacheEnv = { XDG_CACHE_HOME: tmp() };
    fakeWeed(weedCacheDir(cacheEnv));
    const explicit = fakeWeed(tmp());
    await expect(findWeed({ explicitPath: explicit, cacheEnv })).resolves.toBe(explicit);

    const notWeed = fakeWeed(tmp(), 'something else');
    const error = await findWeed({ explicitPath: notWeed, cacheEnv }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeedNotFoundError);
    expect((error as Error).message).toContain(`BANKFLOW_WEED=${notWeed} is not an executable weed`);
  });

  it('reuses a cached build, per SeaweedFS version, outside the repository', async () => {
    const cacheEnv = { XDG_CACHE_HOME: tmp() };
    const cached = fakeWeed(weedCacheDir(cacheEnv));
    await expect(findWeed({ cacheEnv, pathEnv: '' })).resolves.toBe(cached);
    expect(weedCacheDir({ XDG_CACHE_HOME: '/var/cache/x' })).toBe(
      `/var/cache/x/bankflow/seaweedfs-${seaweedfsVersion}`,
    );
  });

  it('explains how to get it when there is no Go toolchain to build it', async () => {
    const error = await findWeed({
      cacheEnv: { XDG_CACHE_HOME: tmp() },
      pathEnv: '',
      progress: silent,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeedNotFoundError);
    expect((error as Error).message).toMatch(/no Go toolchain/);
    expect((error as Error).message).toContain('BANKFLOW_WEED');
  });
});
