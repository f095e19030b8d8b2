import { Help } from 'commander';
import { devkitCommands } from '../../devkit/cli/commands.js';
import { buildProgram } from '../../src/cli/program.js';
import { allCommands, commandPath } from '../../scripts/docs/cli-reference.js';

const help = new Help();

describe("the CLI's --help", () => {
  it('states the default of each option and argument once', () => {
    const twice = allCommands(buildProgram(devkitCommands)).flatMap((command) => [
      ...help
        .visibleOptions(command)
        .map((option) => [`${commandPath(command)} ${option.flags}`, help.optionDescription(option)]),
      ...help
        .visibleArguments(command)
        .map((argument) => [
          `${commandPath(command)} ${argument.name()}`,
          help.argumentDescription(argument),
        ]),
    ]);
    expect(twice.filter(([, description]) => (description?.match(/\(default\b/g) ?? []).length > 1)).toEqual(
      [],
    );
  });

  it('says once that doctor checks for every process unless --as names one', () => {
    const doctor = allCommands(buildProgram(devkitCommands)).find(
      (command) => commandPath(command) === 'doctor',
    );
    const as = doctor && help.visibleOptions(doctor).find((option) => option.long === '--as');
    expect(as && help.optionDescription(as)).toBe(
      'the process to check for: worker, receiver, codec, starter, api, or all of them (default: "all")',
    );
  });
});
