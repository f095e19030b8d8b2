import { Command } from 'commander';
import { devkitCommands } from '../../devkit/cli/commands.js';
import { devkitCommandNames } from '../../src/cli/devkit.js';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { freePort, isListening, runCli } from '../helpers/cli.js';

describe('the development kit', () => {
  it('adds exactly the commands an installed package answers with where they live', () => {
    const program = new Command();
    devkitCommands(program);
    expect(program.commands.map((command) => command.name()).sort()).toEqual([...devkitCommandNames].sort());
  });
});

describe('commands that run only in development', () => {
  it.each(['dev', 'sandbox', 'demo', 'sandbox ids'])(
    '`%s` refuses to run in production, naming BANKFLOW_ENV and the fix',
    async (command) => {
      const args = command.split(' ');
      const port = await freePort();
      const result = await runCli(args, { BANKFLOW_ENV: 'production', SANDBOX_PORT: String(port) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `BANKFLOW_ENV: is production, and bankflow ${args[0]} runs only in development .*` +
            'set BANKFLOW_ENV=development',
        ),
      );
      expect(await isListening(port)).toBe(false);
    },
    cliTestTimeoutMs,
  );
});
