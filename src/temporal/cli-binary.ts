import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { goAvailable, goInstall } from './go-install.js';

/** The last Temporal CLI release installable with `go install` (later ones carry a `replace` directive). */
export const temporalCliVersion = 'v1.5.1';
const modulePath = `github.com/temporalio/cli/cmd/temporal@${temporalCliVersion}`;

export class TemporalCliNotFoundError extends Error {
  constructor(reason: string) {
    super(
      [
        `No usable Temporal CLI: ${reason}`,
        'Install it one of these ways, then run again:',
        '  - Homebrew:            brew install temporal',
        '  - Official download:   curl -sSf https://temporal.download/cli.sh | sh   (or the release page on GitHub)',
        `  - Go toolchain:        go install ${modulePath}`,
        '  - Or point TEMPORAL_CLI at an existing binary.',
      ].join('\n'),
    );
    this.name = 'TemporalCliNotFoundError';
  }
}

export interface FindTemporalCliOptions {
  /** An explicit binary (TEMPORAL_CLI); wins over everything else. */
  explicitPath?: string | undefined;
  /** Where a `go install`ed binary is cached; outside the repository so clones and CI runs share it. */
  cacheDir?: string;
  /** Where build progress is written. */
  progress?: NodeJS.WritableStream;
  /** Set to false to only look, never build. */
  allowBuild?: boolean;
  /** Directories searched for `temporal` and `go` (the PATH). */
  pathEnv?: string | undefined;
}

/** Where bankflow caches the tools it provisions: outside the repository, so clones and CI runs share them. */
export function bankflowCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'bankflow');
}

export function defaultCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(bankflowCacheDir(env), `temporal-cli-${temporalCliVersion}`);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function worksAsTemporal(file: string): boolean {
  const result = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  return result.status === 0 && /temporal version/i.test(result.stdout);
}

/** Every executable called `name` in the PATH's directories, in PATH order. */
export function executablesOnPath(name: string, pathEnv: string | undefined): string[] {
  return (pathEnv ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .filter(isExecutable);
}

function onPath(pathEnv: string | undefined): string | undefined {
  return executablesOnPath('temporal', pathEnv).find(worksAsTemporal);
}

/**
 * Finds a `temporal` binary: TEMPORAL_CLI, else `temporal` on PATH, else the cached build, else builds it with
 * `go install` into the cache. Throws TemporalCliNotFoundError with installation instructions otherwise.
 */
export async function findTemporalCli(options: FindTemporalCliOptions = {}): Promise<string> {
  if (options.explicitPath) {
    if (isExecutable(options.explicitPath) && worksAsTemporal(options.explicitPath))
      return options.explicitPath;
    throw new TemporalCliNotFoundError(
      `TEMPORAL_CLI=${options.explicitPath} is not an executable Temporal CLI`,
    );
  }
  const fromPath = onPath(options.pathEnv);
  if (fromPath) return fromPath;

  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const cached = path.join(cacheDir, 'temporal');
  if (isExecutable(cached) && worksAsTemporal(cached)) return cached;
  if (options.allowBuild === false) {
    throw new TemporalCliNotFoundError(`it is not on PATH and not cached in ${cacheDir}`);
  }
  if (!goAvailable(options.pathEnv)) {
    throw new TemporalCliNotFoundError(
      'it is not on PATH, not cached, and no Go toolchain is available to build it',
    );
  }
  const built = await goInstall({
    cacheDir,
    modules: [modulePath],
    label: `the Temporal CLI ${temporalCliVersion}`,
    progress: options.progress ?? process.stderr,
    pathEnv: options.pathEnv,
  });
  if (!built.ok) throw new TemporalCliNotFoundError(built.reason);
  if (isExecutable(cached) && worksAsTemporal(cached)) return cached;
  throw new TemporalCliNotFoundError(`go install finished but ${cached} does not run`);
}
