import { readFileSync } from 'node:fs';
import { Help } from 'commander';
import { commandExamples } from '../../src/cli/examples.js';
import { devkitCommands } from '../../devkit/cli/commands.js';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, cliReference, commandPath, runsItself } from '../../scripts/docs/cli-reference.js';
import { generatedPages, generatedText, regenerateCommand } from '../../scripts/docs/generated-docs.js';

const exampleLines = (path: string) => commandExamples[path]?.lines ?? [];

describe('the generated references', () => {
  it.each(generatedPages.map((page) => [page.path, page] as const))(
    '%s is what the code generates',
    async (_, page) => {
      if (readFileSync(page.path, 'utf8') !== (await generatedText(page))) {
        throw new Error(`${page.path} differs from what the code generates: run \`${regenerateCommand}\``);
      }
    },
  );

  it('every command that runs something has an example that runs it', () => {
    const missing = allCommands(buildProgram(devkitCommands))
      .filter(runsItself)
      .map(commandPath)
      .filter((path) => !exampleLines(path).some((line) => line.includes(`npx bankflow ${path}`)));
    expect(missing).toEqual([]);
  });

  it("a command's --help ends with its examples", () => {
    for (const command of allCommands(buildProgram(devkitCommands)).filter(
      (c) => exampleLines(commandPath(c)).length > 0,
    )) {
      let help = '';
      command.configureOutput({ writeOut: (text) => (help += text) });
      command.outputHelp();
      const lines = exampleLines(commandPath(command)).map((line) => `  ${line}`);
      expect(help.trimEnd().endsWith(['Examples:', ...lines].join('\n'))).toBe(true);
    }
  });

  it('every example names a command that exists', () => {
    const paths = new Set(allCommands(buildProgram(devkitCommands)).map(commandPath));
    expect(Object.keys(commandExamples).filter((path) => !paths.has(path))).toEqual([]);
  });

  it('prints every option of a command as its --help does', async () => {
    const text = cliReference(buildProgram(devkitCommands), commandExamples);
    const help = new Help();
    for (const command of allCommands(buildProgram(devkitCommands)).filter(runsItself)) {
      expect(text).toContain(`\n${help.commandUsage(command)}\n`);
      for (const option of help.visibleOptions(command).filter((o) => o.long !== '--help')) {
        expect(text).toContain(`| \`${option.flags}\``);
      }
    }
  });
});
