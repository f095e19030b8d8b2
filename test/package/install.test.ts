import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { outputOf, watchProcess, type CliResult } from '../helpers/cli.js';
import { cliEnvFor, workerProcessEnv } from '../helpers/cli-env.js';
import { world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { commonJsBackend, merchantPackageJson, merchantTs, merchantTsconfig } from './merchant-project.js';

const repoRoot = path.resolve('.');
const bankflowPackage = JSON.parse(readFileSync('package.json', 'utf8')) as {
  license: string;
  private?: boolean;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** What the package may weigh: today about 1.8 MB packed, 8 MB unpacked, 680 files (the workflow bundles are most of it). */
const limits = { packedBytes: 2_500_000, unpackedBytes: 10_000_000, files: 800 };

/**
 * The environment of every process this test starts: the repository's npm settings (`npm_config_local_prefix`
 * among them, which points npm at the checkout) and Node's module paths stay out, so the merchant project sees
 * only its own node_modules. The registry, cache and proxy settings stay.
 */
function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const kept =
    /^(PATH|HOME|TMPDIR|HTTPS?_PROXY|NO_PROXY|npm_config_(registry|cache|userconfig|globalconfig|cafile|proxy|https_proxy|noproxy|strict_ssl))$/i;
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => kept.test(entry[0]) && entry[1] !== undefined,
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

function run(command: string, args: string[], cwd: string, env = isolatedEnv()): Promise<CliResult> {
  const child = spawn(command, args, { cwd, env });
  child.stdin.end();
  return outputOf(child);
}

async function succeeded(result: Promise<CliResult>, what: string): Promise<CliResult> {
  const done = await result;
  if (done.code !== 0) throw new Error(`${what} exited ${done.code}:\n${done.stdout}\n${done.stderr}`);
  return done;
}

/** The last line of a process's output, as the JSON the merchant scripts print. */
const lastJsonLine = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/** Every package a built module imports, by name (`@scope/name` or `name`), Node's built-ins left out. */
function importedPackages(dir: string): Set<string> {
  const builtins = new Set(builtinModules);
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // The workflow bundles are self-contained: webpack already resolved their imports at build time.
    if (!entry.isFile() || !/\.(d\.ts|js)$/.test(entry.name) || entry.name.startsWith('workflows-bundle'))
      continue;
    const source = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (fileName.startsWith('.') || fileName.startsWith('node:') || builtins.has(fileName)) continue;
      const parts = fileName.split('/');
      names.add(fileName.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? fileName));
    }
  }
  return names;
}

describe('the package a merchant backend installs', () => {
  const tempDir = tempDirs('bankflow-package-');
  let project: string;
  let packed: PackResult;
  let typeCheck: CliResult;
  let packStart: number;
  const staleModule = `dist/src/stale-${randomUUID()}.js`;
  const seconds: Record<string, number> = {};

  async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      return await work();
    } finally {
      seconds[step] = Math.round((Date.now() - start) / 100) / 10;
    }
  }

  beforeAll(async () => {
    const packDir = tempDir();
    project = tempDir();
    if (project.startsWith(repoRoot)) throw new Error(`${project} is inside the checkout`);

    // `npm pack` runs `prepare`, which builds dist/ from the sources: a pack from a fresh clone holds it too. A
    // module left in dist/ by an older build must not ship.
    mkdirSync('dist/src', { recursive: true });
    writeFileSync(staleModule, 'export {};\n');
    packStart = Date.now();
    const pack = await timed('pack', () =>
      succeeded(run('npm', ['pack', '--json', '--pack-destination', packDir], repoRoot), 'npm pack'),
    );
    // The build's own output comes first on stdout; npm's JSON report is the last thing written.
    [packed] = JSON.parse(pack.stdout.slice(pack.stdout.lastIndexOf('\n[\n') + 1)) as [PackResult];

    writeFileSync(path.join(project, 'package.json'), JSON.stringify(merchantPackageJson));
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(merchantTsconfig));
    writeFileSync(path.join(project, 'merchant.ts'), merchantTs);
    writeFileSync(path.join(project, 'commonjs.cjs'), commonJsBackend);
    const { typescript, '@types/node': nodeTypes } = bankflowPackage.devDependencies;
    await timed('install', () =>
      succeeded(
        run(
          'npm',
          [
            'install',
            '--prefer-offline',
            '--no-audit',
            '--no-fund',
            path.join(packDir, packed.filename),
            `typescript@${typescript}`,
            `@types/node@${nodeTypes}`,
          ],
          project,
        ),
        'npm install',
      ),
    );
    // The project's own TypeScript, strict, emitting out/merchant.js for the journey below.
    typeCheck = await timed('tsc', () =>
      run(process.execPath, ['node_modules/typescript/bin/tsc', '--strict', '-p', '.'], project),
    );
  }, 900_000);

  afterAll(() => {
    process.stdout.write(
      `bankflow package: ${packed?.size} bytes packed, ${packed?.unpackedSize} unpacked, ${packed?.entryCount} files; ` +
        `seconds: ${JSON.stringify(seconds)}\n`,
    );
  });

  it('is built as it is packed, from an empty dist/', () => {
    expect(statSync('dist/src/starter/index.js').mtimeMs).toBeGreaterThanOrEqual(packStart);
    expect(existsSync(staleModule)).toBe(false);
    expect(packed.files.map((file) => file.path)).not.toContain(staleModule);
  });

  it('is licensed Apache-2.0, with its text, and not private', () => {
    expect(bankflowPackage.license).toBe('Apache-2.0');
    expect(bankflowPackage.private).toBeUndefined();
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
    expect(packed.files.map((file) => file.path)).toContain('LICENSE');
  });

  it('holds the built code with its types, the workflow bundles, the binary and the docs, and nothing of development', () => {
    // The build compiles the development kit too (dist/devkit/, for `npm start`); the package leaves it out.
    expect(existsSync('dist/devkit/cli/commands.js')).toBe(true);
    const files = new Set(packed.files.map((file) => file.path));
    for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'bin/bankflow.js']) {
      expect(files).toContain(file);
    }
    // Every module compiled with its declarations, and the worker's prebuilt bundles.
    const sources = readdirSync('src', { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative('src', path.join(entry.parentPath, entry.name)));
    const expected = [
      ...sources.flatMap((file) =>
        file.endsWith('.ts') ? [file.replace(/\.ts$/, '.js'), file.replace(/\.ts$/, '.d.ts')] : [file],
      ),
      'workflows-bundle.js',
      'workflows-bundle-traced.js',
    ].map((file) => `dist/src/${file}`);
    expect(expected.filter((file) => !files.has(file))).toEqual([]);

    const docs = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'];
    const development = [...files].filter(
      (file) => !docs.includes(file) && !(/^(dist\/src|bin)\//.test(file) && !file.endsWith('.map')),
    );
    expect(development).toEqual([]);

    expect(packed.size).toBeLessThan(limits.packedBytes);
    expect(packed.unpackedSize).toBeLessThan(limits.unpackedBytes);
    expect(packed.entryCount).toBeLessThan(limits.files);
  });

  it('imports at run time only its runtime dependencies, and every one of them', () => {
    const imported = importedPackages(path.join(project, 'node_modules/bankflow/dist'));
    const dependencies = Object.keys(bankflowPackage.dependencies);
    expect([...imported].filter((name) => !dependencies.includes(name)).sort()).toEqual([]);
    expect(dependencies.filter((name) => !imported.has(name))).toEqual([]);
  });

  it("type-checks a merchant's strict TypeScript against the installed starter", () => {
    expect(typeCheck.stdout + typeCheck.stderr).toBe('');
    expect(typeCheck.code).toBe(0);
  });

  it('runs `bankflow --help` and `bankflow worker --help` from the installed package', async () => {
    const help = await succeeded(run('npx', ['--offline', 'bankflow', '--help'], project), 'bankflow --help');
    expect(help.stdout).toMatch(/^Usage: bankflow /);
    expect(help.stdout).toMatch(/\n {2}worker /);
    const worker = await succeeded(
      run('npx', ['--offline', 'bankflow', 'worker', '--help'], project),
      'bankflow worker --help',
    );
    expect(worker.stdout).toMatch(/^Usage: bankflow worker/);
  });

  describe('against a test stack, with the worker run from the installed package', () => {
    let stack: TestStack;
    let stopWorker: () => Promise<number | null>;

    beforeAll(async () => {
      stack = await startTestStack();
      // Only the installed worker serves the task queue, so the journeys below run on the packed workflow bundle.
      await stack.stopWorker();
      const worker = watchProcess(
        spawn(path.join(project, 'node_modules/.bin/bankflow'), ['worker'], {
          cwd: project,
          env: isolatedEnv(workerProcessEnv(stack)),
        }),
      );
      stopWorker = () => worker.stop();
      await timed('worker start', () => worker.waitFor(/worker running/));
    }, 180_000);

    afterAll(async () => {
      expect(await stopWorker?.()).toBe(0);
      await stack?.stop();
    });

    const boletoIds = () => [...stack.sandbox.state.boletos.values()].map((boleto) => boleto.id);

    it("a TypeScript merchant backend cancels a boleto and starts a payment the bank refuses, meeting each of the starter's errors", async () => {
      const [boletoId = ''] = boletoIds();
      const { entityId, virtualAccountId } = world(stack);
      const externalId = `package-${randomUUID()}`;
      const merchant = await timed('merchant', () =>
        succeeded(
          run(
            process.execPath,
            ['out/merchant.js', boletoId, externalId, randomUUID(), randomUUID(), entityId, virtualAccountId],
            project,
            isolatedEnv(cliEnvFor(stack)),
          ),
          'the merchant backend',
        ),
      );
      expect(lastJsonLine(merchant.stdout)).toEqual({
        boleto: { id: boletoId, status: 'cancelled' },
        invalid: expect.stringMatching(/^boletoId: /),
        conflict: ['amountCents'],
        refused: `payment:${externalId}`,
      });
      expect(stack.sandbox.state.boletos.get(boletoId)?.status).toBe('cancelled');
    });

    it('a CommonJS backend loads the starter with import(), and with require() where Node has require(esm)', async () => {
      const boletoId = boletoIds()[1] ?? '';
      const backend = await succeeded(
        run(process.execPath, ['commonjs.cjs', boletoId], project, isolatedEnv(cliEnvFor(stack))),
        'the CommonJS backend',
      );
      // Node turned require(esm) on by default in 20.19 and 22.12 (jest's own process reports it off).
      const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
      const requireEsm = major === 20 ? minor >= 19 : major === 22 ? minor >= 12 : major > 22;
      expect(lastJsonLine(backend.stdout)).toEqual({
        boleto: { id: boletoId, status: 'cancelled' },
        requireEsm,
        requiredSameModule: requireEsm ? true : null,
      });
    });
  });
});
