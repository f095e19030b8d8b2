import { readFileSync } from 'node:fs';
import { Help } from 'commander';
import { commandExamples } from '../../src/cli/examples.js';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, commandPath, runsItself } from '../../scripts/docs/cli-reference.js';
import { generatedDocs, regenerateCommand } from '../../scripts/docs/generated-docs.js';

const exampleLines = (path: string) => commandExamples[path]?.lines ?? [];

describe('the generated references', () => {
  it('docs/cli.md and docs/configuration.md are what the code generates', async () => {
    for (const page of await generatedDocs()) {
      const committed = readFileSync(page.path, 'utf8');
      if (committed !== page.text) {
        throw new Error(`${page.path} differs from what the code generates: run \`${regenerateCommand}\``);
      }
    }
  });

  it('every command that runs something has an example that runs it', () => {
    const missing = allCommands(buildProgram())
      .filter(runsItself)
      .map(commandPath)
      .filter((path) => !exampleLines(path).some((line) => line.includes(`npx bankflow ${path}`)));
    expect(missing).toEqual([]);
  });

  it('every example names a command that exists', () => {
    const paths = new Set(allCommands(buildProgram()).map(commandPath));
    expect(Object.keys(commandExamples).filter((path) => !paths.has(path))).toEqual([]);
  });

  it('prints every option of a command as its --help does', async () => {
    const text = (await generatedDocs()).find((page) => page.path === 'docs/cli.md')?.text ?? '';
    const help = new Help();
    for (const command of allCommands(buildProgram()).filter(runsItself)) {
      expect(text).toContain(`\n${help.commandUsage(command)}\n`);
      for (const option of help.visibleOptions(command).filter((o) => o.long !== '--help')) {
        expect(text).toContain(`| \`${option.flags}\``);
      }
    }
  });
});
