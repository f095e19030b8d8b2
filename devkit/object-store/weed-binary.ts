import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bankflowCacheDir, isExecutable } from '../../src/temporal/cli-binary.js';
import { goBuildMainModule } from '../../src/temporal/go-install.js';

/**
 * SeaweedFS (Apache-2.0), whose `weed mini` serves an S3 API from one process: the object store the S3 report
 * tests and `bankflow cluster` with CLUSTER_OBJECT_STORE_PORT run. A pseudo-version the Go module proxy serves;
 * its go.mod holds `replace` directives, so it is built as the main module rather than with `go install`.
 */
export const seaweedfsModule = 'github.com/seaweedfs/seaweedfs';
export const seaweedfsVersion = 'v0.0.0-20261109003541-7506e5f91cd6';

export class WeedNotFoundError extends Error {
  constructor(reason: string) {
    super(
      [
        `No usable SeaweedFS \`weed\`: ${reason}`,
        'Install Go (https://go.dev/dl, or apt-get install golang) and run again: bankflow builds it once into',
        `${weedCacheDir()}; or point BANKFLOW_WEED at an existing weed binary.`,
      ].join('\n'),
    );
    this.name = 'WeedNotFoundError';
  }
}

export function weedCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(bankflowCacheDir(env), `seaweedfs-${seaweedfsVersion}`);
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

/** BANKFLOW_WEED, else the cached build, else builds it with Go into the cache (minutes, once per machine). */
export async function findWeed(options: FindWeedOptions = {}): Promise<string> {
  if (options.explicitPath) {
    if (isExecutable(options.explicitPath) && worksAsWeed(options.explicitPath)) return options.explicitPath;
    throw new WeedNotFoundError(`BANKFLOW_WEED=${options.explicitPath} is not an executable weed`);
  }
  const cached = path.join(weedCacheDir(options.cacheEnv), 'weed');
  if (isExecutable(cached) && worksAsWeed(cached)) return cached;
  const built = await goBuildMainModule({
    module: `${seaweedfsModule}@${seaweedfsVersion}`,
    packageDir: './weed',
    output: cached,
    label: `SeaweedFS ${seaweedfsVersion}`,
    progress: options.progress ?? process.stderr,
    pathEnv: options.pathEnv ?? process.env.PATH,
  });
  if (!built.ok) throw new WeedNotFoundError(built.reason);
  if (isExecutable(cached) && worksAsWeed(cached)) return cached;
  throw new WeedNotFoundError(`the build finished but ${cached} does not run`);
}
