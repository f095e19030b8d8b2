import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('bankflow-cli-imports-');

/** What the definitions of bankflow's commands may load: the command-line parser and the option schemas. */
const definitionPackages = ['commander', 'zod'];
/** What runs the TypeScript source in the child, not what bankflow loads. */
const loaderPackages = ['esbuild', 'tsx'];

const packageOf = (location: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(location)?.[1];

/**
 * The packages a fresh `node` process holds after running `script` (ES module source; `url(path)` is the URL
 * of a file of the repository): every module the ES module loader resolves, recorded by
 * test/helpers/module-recorder.mjs, and every CommonJS module in the require cache (a CommonJS package's own
 * requires bypass the loader's hooks).
 */
function packagesLoadedBy(script: string): string[] {
  const record = path.join(tempDir(), 'resolved.txt');
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { writeFileSync } from 'node:fs';
       import { createRequire, register } from 'node:module';
       import { pathToFileURL } from 'node:url';
       const url = (file) => pathToFileURL(file).href;
       writeFileSync(${JSON.stringify(record)}, '');
       register(url('test/helpers/module-recorder.mjs'), { data: { file: ${JSON.stringify(record)} } });
       ${script}
       console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
  );
  if (child.status !== 0) throw new Error(`the child exited ${child.status}: ${child.stderr}`);
  const required = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
  const resolved = readFileSync(record, 'utf8').split('\n');
  const packages = new Set([...resolved, ...required].map(packageOf).filter((name) => name !== undefined));
  return [...packages].filter((name) => !loaderPackages.includes(name)).sort();
}

/**
 * `bankflow --help` and `bankflow <command> --help` answer at once because a command's definition (name,
 * options, help, argument checks) loads only commander and zod; its action imports the Temporal client, the
 * bank client, the worker or the servers when it runs. A static import of any of them from a command module
 * fails here, naming the package: move it into the action (`await import(...)`). Timed by `npm run
 * bench:cli`.
 */
describe("the CLI's command definitions", () => {
  it('load only commander and zod, with every --help rendered, the development kit included', () => {
    const loaded = packagesLoadedBy(`
      const { buildProgram } = await import(url('src/cli/program.ts'));
      const { loadDevkitCommands } = await import(url('src/cli/devkit.ts'));
      const program = buildProgram(await loadDevkitCommands());
      const help = (command) => [command.helpInformation(), ...command.commands.flatMap(help)];
      if (help(program).length < 40) throw new Error('the program lacks its commands');
    `);
    expect(loaded).toEqual(definitionPackages);
  });

  it('the check itself sees a package a module loads, CommonJS or ES module', () => {
    const loaded = packagesLoadedBy(`
      await import(url('src/cli/failure-message.ts'));
      await import('got');
    `);
    expect(loaded).toEqual(expect.arrayContaining(['@temporalio/client', '@temporalio/common', 'got']));
  });
});
