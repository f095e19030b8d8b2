import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { watchProcess, type CliResult } from '../helpers/cli.js';
import { cliEnvFor, workerProcessEnv } from '../helpers/cli-env.js';
import { world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { commonJsBackend, merchantPackageJson, merchantTs, merchantTsconfig } from './merchant-project.js';
import { copyOfCheckout, importedPackages, isolatedEnv, run, succeeded } from './npm-project.js';

const repoRoot = path.resolve('.');
const bankflowPackage = JSON.parse(readFileSync('package.json', 'utf8')) as {
  license: string;
  private?: boolean;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/**
 * What the package may weigh: today about 1.8 MB packed, 8 MB unpacked, 680 files (the workflow bundles are
 * most of it).
 */
const limits = { packedBytes: 2_500_000, unpackedBytes: 10_000_000, files: 800 };

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

describe('the package a merchant backend installs', () => {
  const tempDir = tempDirs('bankflow-package-');
  let project: string;
  let checkout: string;
  let packDir: string;
  let packed: PackResult;
  let typeCheck: CliResult;
  let packStart: number;
  const staleModule = `dist/src/stale-${randomUUID()}.js`;
  /** When the checkout's own dist/ was last built, if it was: the pack must leave it alone. */
  const checkoutBuild = () =>
    existsSync('dist/src/cli/main.js') ? statSync('dist/src/cli/main.js').mtimeMs : 0;
  const checkoutBuiltBefore = checkoutBuild();
  /** A path in the copy of the checkout that was packed. */
  const inCheckout = (file: string) => path.join(checkout, file);
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
    packDir = tempDir();
    project = tempDir();
    if (project.startsWith(repoRoot)) throw new Error(`${project} is inside the checkout`);

    // `npm pack` runs `prepare`, which builds dist/ and removes stale outputs. It runs in a copy of the
    // checkout (the files a clone holds, with this run's edits), because other tests and benchmarks run the
    // checkout's own dist/ meanwhile.
    checkout = copyOfCheckout(tempDir());
    // A module left in dist/ by an older build must not ship.
    mkdirSync(inCheckout('dist/src'), { recursive: true });
    writeFileSync(inCheckout(staleModule), 'export {};\n');
    packStart = Date.now();
    const pack = await timed('pack', () =>
      succeeded(run('npm', ['pack', '--json', '--pack-destination', packDir], checkout), 'npm pack'),
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
    expect(statSync(inCheckout('dist/src/starter/index.js')).mtimeMs).toBeGreaterThanOrEqual(packStart);
    expect(existsSync(inCheckout(staleModule))).toBe(false);
    expect(checkoutBuild()).toBe(checkoutBuiltBefore);
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
    expect(existsSync(inCheckout('dist/devkit/cli/commands.js'))).toBe(true);
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

  describe('installed as production installs it: `npm ci --omit=dev` from the lock, no development kit', () => {
    let production: string;
    const bankflow = (...args: string[]) =>
      run(process.execPath, [path.join(production, 'bin/bankflow.js'), ...args], production);

    beforeAll(async () => {
      // What `files` publishes (the tarball), with the lock beside it as a deployment's checkout has it.
      production = tempDir();
      await succeeded(
        run('tar', ['-xzf', path.join(packDir, packed.filename), '--strip-components=1'], production),
        'tar',
      );
      copyFileSync('package-lock.json', path.join(production, 'package-lock.json'));
      await timed('production install', () =>
        succeeded(
          run(
            'npm',
            ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
            production,
          ),
          'npm ci --omit=dev',
        ),
      );
    }, 600_000);

    it.each([
      ['worker', /^Usage: bankflow worker/],
      ['webhooks', /^Usage: bankflow webhooks/],
      ['doctor', /^Usage: bankflow doctor/],
    ])('runs `bankflow %s --help`', async (command, usage) => {
      const help = await bankflow(command, '--help');
      expect(help.stderr).toBe('');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(usage);
    });

    it("installs none of the development kit's own dependencies, and holds no development kit", () => {
      const devkitOnly = [...importedPackages('devkit')].filter((name) => !importedPackages('src').has(name));
      expect(devkitOnly).toContain('@simplewebauthn/server');
      for (const name of devkitOnly) {
        expect(bankflowPackage.dependencies[name]).toBeUndefined();
        expect(existsSync(path.join(production, 'node_modules', name))).toBe(false);
      }
      expect(existsSync(path.join(production, 'dist/devkit'))).toBe(false);
    });

    it.each(['dev', 'cluster', 'sandbox', 'demo', 'sandbox ids'])(
      '`bankflow %s` says it belongs to the development kit of a clone, and exits 1',
      async (command) => {
        const result = await bankflow(...command.split(' '));
        expect(result.stderr).toContain(
          `bankflow ${command.split(' ')[0]} belongs to the development kit (devkit/), which only a clone of the bankflow repository holds`,
        );
        expect(result.code).toBe(1);
      },
    );

    it('lists only the production commands in `bankflow --help`', async () => {
      const help = await succeeded(bankflow('--help'), 'bankflow --help');
      expect(help.stdout).toMatch(/\n {2}worker /);
      expect(help.stdout).not.toMatch(/\n {2}(dev|cluster|sandbox|demo) /);
    });
  });

  describe('against a test stack, with the worker run from the installed package', () => {
    let stack: TestStack;
    let stopWorker: () => Promise<number | null>;
    let workerOutput: () => string;

    beforeAll(async () => {
      stack = await startTestStack();
      // Only the installed worker serves the task queue, so the journeys below run on the packed workflow
      // bundle.
      await stack.stopWorker();
      const worker = watchProcess(
        spawn(path.join(project, 'node_modules/.bin/bankflow'), ['worker'], {
          cwd: project,
          env: isolatedEnv(workerProcessEnv(stack)),
        }),
      );
      stopWorker = () => worker.stop();
      workerOutput = () => worker.output();
      await timed('worker start', () => worker.waitFor(/worker running/));
    }, 180_000);

    afterAll(async () => {
      expect(await stopWorker?.()).toBe(0);
      await stack?.stop();
    });

    it('starts its worker on the prebuilt bundle without a warning (the bundle holds its interceptor modules)', () => {
      expect(workerOutput()).toMatch(/worker running/);
      expect(workerOutput()).not.toMatch(/"level":40|Ignoring WorkerOptions/);
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
