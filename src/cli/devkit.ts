import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { printLines } from './terminal-text.js';

/** Adds commands to the program. */
export type AddCommands = (program: Command) => void;

/** The commands of the development kit (devkit/cli/commands.ts); a test holds the two lists together. */
export const devkitCommandNames = ['dev', 'cluster', 'sandbox', 'demo'] as const;

const here = path.dirname(fileURLToPath(import.meta.url));
/** `.ts` when run from source, `.js` from `dist/`: devkit/ sits beside src/ in both. */
const extension = path.extname(fileURLToPath(import.meta.url));
const devkitEntry = path.join(here, '..', '..', 'devkit', 'cli', `commands${extension}`);

/**
 * The development kit's commands where a clone of the repository holds devkit/; an installed package does not
 * ship it (`files` in package.json), and its `bankflow` answers those commands by saying where they live. The
 * import is dynamic so that nothing in src/ depends on devkit/.
 */
export async function loadDevkitCommands(): Promise<AddCommands> {
  if (!existsSync(devkitEntry)) return devkitAbsent;
  const devkit = (await import(pathToFileURL(devkitEntry).href)) as { devkitCommands: AddCommands };
  return devkit.devkitCommands;
}

/** Hidden commands that explain, whatever their options, instead of commander's "unknown command". */
function devkitAbsent(program: Command): void {
  for (const name of devkitCommandNames) {
    program
      .command(name, { hidden: true })
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        printLines(
          `error: bankflow ${name} belongs to the development kit (devkit/), which only a clone of the bankflow ` +
            'repository holds (run `npm start` there); this installed package runs the production commands: ' +
            'bankflow --help lists them',
          'stderr',
        );
        process.exitCode = 1;
      });
  }
}
