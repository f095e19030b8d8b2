import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { defaultCacheDir, findTemporalCli, TemporalCliNotFoundError } from '../../src/temporal/cli-binary.js';
import { tempDirs } from '../helpers/temp-dirs.js';

function fakeTemporal(
  dir: string,
  versionLine = 'temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)',
): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'temporal');
  writeFileSync(file, `#!/bin/sh\necho "${versionLine}"\n`);
  chmodSync(file, 0o755);
  return file;
}

const tmp = tempDirs('bankflow-cli-');
const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

describe('finding the Temporal CLI', () => {
  it('prefers TEMPORAL_CLI over everything else', async () => {
    const explicit = fakeTemporal(path.join(tmp(), 'explicit'));
    const onPath = fakeTemporal(path.join(tmp(), 'bin'));
    await expect(findTemporalCli({ explicitPath: explicit, pathEnv: path.dirname(onPath) })).resolves.toBe(
      explicit,
    );
  });

  it('refuses a TEMPORAL_CLI that is not a Temporal CLI, with installation instructions', async () => {
    const notTemporal = fakeTemporal(tmp(), 'something else 1.0');
    const error = await findTemporalCli({ explicitPath: notTemporal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    expect((error as Error).message).toContain(`TEMPORAL_CLI=${notTemporal}`);
    expect((error as Error).message).toContain('brew install temporal');
    expect((error as Error).message).toContain('temporal.download');
  });

  it('finds `temporal` on the PATH before the cache', async () => {
    const onPath = fakeTemporal(path.join(tmp(), 'bin'));
    const cacheDir = path.join(tmp(), 'cache');
    fakeTemporal(cacheDir);
    await expect(
      findTemporalCli({ pathEnv: `/nonexistent:${path.dirname(onPath)}`, cacheDir }),
    ).resolves.toBe(onPath);
  });

  it('reuses a cached build', async () => {
    const cacheDir = path.join(tmp(), 'cache');
    const cached = fakeTemporal(cacheDir);
    await expect(findTemporalCli({ pathEnv: '', cacheDir, allowBuild: false })).resolves.toBe(cached);
  });

  it('says where it looked when nothing is there and building is not allowed', async () => {
    const cacheDir = path.join(tmp(), 'empty-cache');
    await expect(findTemporalCli({ pathEnv: '', cacheDir, allowBuild: false })).rejects.toThrow(
      `it is not on PATH and not cached in ${cacheDir}`,
    );
  });

  it('explains how to install it when there is no Go toolchain to build it', async () => {
    const cacheDir = path.join(tmp(), 'no-go');
    const error = await findTemporalCli({ pathEnv: '', cacheDir, progress: silent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    expect((error as Error).message).toMatch(/no Go toolchain/);
    expect((error as Error).message).toContain('go install github.com/temporalio/cli/cmd/temporal@v1.5.1');
  });

  it('keeps its cache outside the repository, per CLI version', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/x' })).toBe(
      '/var/cache/x/bankflow/temporal-cli-v1.5.1',
    );
    expect(defaultCacheDir({})).toMatch(/\.cache\/bankflow\/temporal-cli-v1\.5\.1$/);
  });
});
