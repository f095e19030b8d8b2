import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

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

/** Runs `go <args>` with one progress line counting compiled packages; resolves with go's exit code. */
async function goWithProgress(
  args: string[],
  options: {
    cwd?: string;
    env: NodeJS.ProcessEnv;
    label: string;
    into: string;
    progress: NodeJS.WritableStream;
  },
): Promise<number | null> {
  const { progress } = options;
  progress.write(
    `Building ${options.label} with Go into ${options.into} (first time only, takes minutes)...\n`,
  );
  const started = Date.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('go', args, {
      cwd: options.cwd,
      env: options.env,
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
  return code;
}

/** `go install` into the cache directory, one progress line counting compiled packages. */
export async function goInstall(options: GoInstallOptions): Promise<GoInstallResult> {
  const env = { ...process.env, PATH: options.pathEnv ?? '', GOBIN: options.cacheDir, GOFLAGS: '-mod=mod' };
  if (!goAvailable(options.pathEnv)) return { ok: false, reason: 'no Go toolchain is on PATH to build it' };
  mkdirSync(options.cacheDir, { recursive: true });
  const code = await goWithProgress(['install', '-v', ...options.modules], {
    env,
    label: options.label,
    into: options.cacheDir,
    progress: options.progress,
  });
  return code === 0
    ? { ok: true }
    : { ok: false, reason: `go install ${options.modules.join(' ')} exited with code ${code}` };
}

export interface GoBuildMainModuleOptions {
  /** `module@version`, fetched through the Go module proxy. */
  module: string;
  /** The package to build, relative to the module's root (`./weed`). */
  packageDir: string;
  /** Where the binary lands. */
  output: string;
  label: string;
  progress: NodeJS.WritableStream;
  pathEnv: string | undefined;
}

/**
 * Builds a module's command as the main module, for a module `go install` refuses because its go.mod holds
 * `replace` directives: `go mod download` fetches its source into the module cache (read-only), a copy of it
 * is built with its own go.mod, replaces and all, and the copy is removed.
 */
export async function goBuildMainModule(options: GoBuildMainModuleOptions): Promise<GoInstallResult> {
  const env = { ...process.env, PATH: options.pathEnv ?? '', GOFLAGS: '-mod=mod' };
  if (!goAvailable(options.pathEnv)) return { ok: false, reason: 'no Go toolchain is on PATH to build it' };
  const download = spawnSync('go', ['mod', 'download', '-json', options.module], { encoding: 'utf8', env });
  const source = download.status === 0 ? (JSON.parse(download.stdout) as { Dir?: string }).Dir : undefined;
  if (!source) {
    return {
      ok: false,
      reason: `go mod download ${options.module} failed: ${download.stderr.trim() || download.stdout.trim()}`,
    };
  }
  const outputDir = path.dirname(options.output);
  mkdirSync(outputDir, { recursive: true });
  const copy = mkdtempSync(path.join(outputDir, '.source-'));
  try {
    cpSync(source, copy, { recursive: true });
    // The module cache keeps its files read-only; the build may write go.sum.
    chmodTree(copy);
    const code = await goWithProgress(
      ['build', '-v', '-trimpath', '-o', options.output, options.packageDir],
      {
        cwd: copy,
        env,
        label: options.label,
        into: options.output,
        progress: options.progress,
      },
    );
    return code === 0
      ? { ok: true }
      : { ok: false, reason: `go build ${options.packageDir} of ${options.module} exited with code ${code}` };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function chmodTree(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chmodTree(full);
    else chmodSync(full, 0o644);
  }
}
