import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { workflowBuildIdOfFile } from '../../src/temporal/worker-deployment.js';
import { outputOf, type CliResult } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { copyOfCheckout } from '../package/npm-project.js';

const repoRoot = path.resolve('.');

/** `command` run in `cwd`, outside any npm lifecycle (a `prepare` under npx builds nothing). */
function run(command: string, args: string[], cwd: string): Promise<CliResult> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => !entry[0].startsWith('npm_') && entry[1] !== undefined,
    ),
  );
  const child = spawn(command, args, { cwd, env });
  child.stdin.end();
  return outputOf(child);
}

async function succeeded(result: Promise<CliResult>, what: string): Promise<CliResult> {
  const done = await result;
  if (done.code !== 0) throw new Error(`${what} exited ${done.code}:\n${done.stdout}\n${done.stderr}`);
  return done;
}

/** Every file under `root`/dist, relative to `root`, with its size and modification time. */
function builtFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(path.join(root, 'dist'), { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size, mtimeMs } = statSync(file);
    files.set(path.relative(root, file), `${size} ${mtimeMs}`);
  }
  return files;
}

describe('scripts/link-bin.mjs', () => {
  const tempDir = tempDirs('bankflow-link-bin-');
  const linkBin = (cwd: string) =>
    succeeded(run(process.execPath, [path.join(repoRoot, 'scripts/link-bin.mjs')], cwd), 'link-bin');

  function project(): string {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', bin: { x: 'bin/x.js' } }));
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin/x.js'), '#!/usr/bin/env node\n');
    return dir;
  }

  it('links a command once, relatively, and puts back a link that points elsewhere', async () => {
    const dir = project();
    mkdirSync(path.join(dir, 'node_modules'));
    await linkBin(dir);
    const link = path.join(dir, 'node_modules/.bin/x');
    expect(readlinkSync(link)).toBe('../../bin/x.js');
    expect(statSync(path.join(dir, 'bin/x.js')).mode & 0o111).not.toBe(0);
    const linked = lstatSync(link).ino;
    await linkBin(dir);
    expect(lstatSync(link).ino).toBe(linked);

    rmSync(link);
    symlinkSync('../elsewhere.js', link);
    await linkBin(dir);
    expect(readlinkSync(link)).toBe('../../bin/x.js');
    expect(readdirSync(path.join(dir, 'node_modules/.bin'))).toEqual(['x']);
  });

  it('links nothing before anything is installed', async () => {
    const dir = project();
    await linkBin(dir);
    expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
  });
});

/**
 * `npm run build` (scripts/build.mjs) in a copy of the checkout: the checkout's own dist/ is what `npm start`
 * and the benchmarks run, and the tests' processes run from .test-results/build (scripts/test-build.mjs), so
 * this build touches neither. The copy's node_modules holds links to the checkout's packages, not to its
 * node_modules itself, so the build links `bankflow` in the copy's own node_modules/.bin.
 */
describe('the build', () => {
  const tempDir = tempDirs('bankflow-build-');
  let checkout: string;
  const inCheckout = (file: string) => path.join(checkout, file);
  const build = () => succeeded(run(process.execPath, ['scripts/build.mjs'], checkout), 'scripts/build.mjs');
  /** A module only the first build has a source for. */
  const probe = 'src/build-probe.ts';
  const probeOutputs = [
    'dist/src/build-probe.js',
    'dist/src/build-probe.js.map',
    'dist/src/build-probe.d.ts',
  ];
  const plainBundle = 'dist/src/workflows-bundle.js';
  const tracedBundle = 'dist/src/workflows-bundle-traced.js';
  let firstBuild: Map<string, string>;

  beforeAll(async () => {
    checkout = copyOfCheckout(tempDir());
    rmSync(inCheckout('node_modules'));
    mkdirSync(inCheckout('node_modules'));
    for (const name of readdirSync('node_modules').filter((entry) => entry !== '.bin')) {
      symlinkSync(path.resolve('node_modules', name), inCheckout(`node_modules/${name}`));
    }
    writeFileSync(inCheckout(probe), 'export const probe = 1;\n');
    await build();
    firstBuild = builtFiles(checkout);
  }, 900_000);

  it('links node_modules/.bin/bankflow to bin/bankflow.js, which runs the build', async () => {
    expect(readlinkSync(inCheckout('node_modules/.bin/bankflow'))).toBe('../../bin/bankflow.js');
    const help = await succeeded(
      run(inCheckout('node_modules/.bin/bankflow'), ['--help'], checkout),
      'bankflow',
    );
    expect(help.stdout).toMatch(/^Usage: bankflow /);
    for (const file of [...probeOutputs, plainBundle, tracedBundle]) expect(firstBuild.has(file)).toBe(true);
  });

  it('writes and deletes nothing when nothing changed', async () => {
    const { stdout } = await build();
    expect(stdout).toMatch(
      /nothing to compile, 0 assets copied, workflow bundles unchanged, 0 stale outputs/,
    );
    expect(builtFiles(checkout)).toEqual(firstBuild);
  });

  it("bundles a changed workflow again, under a new build id, and removes only a deleted source's outputs", async () => {
    const buildIdBefore = workflowBuildIdOfFile(inCheckout(plainBundle));
    const tracedBefore = readFileSync(inCheckout(tracedBundle));
    appendFileSync(inCheckout('src/workflows/index.ts'), `export const buildProbe = '${randomUUID()}';\n`);
    rmSync(inCheckout(probe));

    const { stdout } = await build();
    expect(stdout).toMatch(/workflows bundled, 3 stale outputs removed/);
    expect(workflowBuildIdOfFile(inCheckout(plainBundle))).not.toBe(buildIdBefore);
    expect(readFileSync(inCheckout(tracedBundle)).equals(tracedBefore)).toBe(false);
    const after = builtFiles(checkout);
    expect(probeOutputs.filter((file) => after.has(file))).toEqual([]);
    expect([...firstBuild.keys()].filter((file) => !after.has(file)).sort()).toEqual(probeOutputs.sort());
  }, 600_000);
});
