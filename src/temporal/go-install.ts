import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export interface GoInstallOptions {
  /** GOBIN: where the binaries land. */
  cacheDir: string;
  /** `module/path/cmd@version` for each binary. */
  modules: string[];
  /** What is being built, for the progress line. */
  label: string;
  progress: NodeJS.WritableStream;
  pathEnv: string | undefined;
}

export type GoInstallResult = { ok: true } | { ok: false; reason: string };

/** Whether a Go toolchain is on the PATH (`go install` is how bankflow provisions Temporal's binaries). */
export function goAvailable(pathEnv: string | undefined): boolean {
  return spawnSync('go', ['version'], { env: { ...process.env, PATH: pathEnv ?? '' } }).status === 0;
}

/** The Go module cache, where `go install` leaves the sources (and the files shipped with them). */
export function goModCache(pathEnv: string | undefined): string {
  const result = spawnSync('go', ['env', 'GOMODCACHE'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: pathEnv ?? '' },
  });
  return result.stdout.trim();
}

/** `go install` into the cache directory, one progress line counting compiled packages. */
export async function goInstall(options: GoInstallOptions): Promise<GoInstallResult> {
  const env = { ...process.env, PATH: options.pathEnv ?? '', GOBIN: options.cacheDir, GOFLAGS: '-mod=mod' };
  if (!goAvailable(options.pathEnv)) return { ok: false, reason: 'no Go toolchain is on PATH to build it' };
  mkdirSync(options.cacheDir, { recursive: true });
  const { progress } = options;
  progress.write(
    `Building ${options.label} with Go into ${options.cacheDir} (first time only, takes minutes)...\n`,
  );
  const started = Date.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('go', ['install', '-v', ...options.modules], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let built = 0;
    const tick = (chunk: Buffer) => {
      built += chunk.toString().split('\n').filter(Boolean).length;
      progress.write(`\r  compiled ${built} packages (${Math.round((Date.now() - started) / 1000)} s)`);
    };
    child.stdout.on('data', tick);
    child.stderr.on('data', tick);
    child.on('error', reject);
    child.on('close', resolve);
  });
  progress.write('\n');
  return code === 0
    ? { ok: true }
    : { ok: false, reason: `go install ${options.modules.join(' ')} exited with code ${code}` };
}
