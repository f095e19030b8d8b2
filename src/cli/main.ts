import { loadDevkitCommands } from './devkit.js';
import { buildProgram } from './program.js';

await buildProgram(await loadDevkitCommands()).parseAsync(process.argv);
