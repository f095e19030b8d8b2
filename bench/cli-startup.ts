import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDevkitCommands } from '../src/cli/devkit.js';
import { buildProgram } from '../src/cli/program.js';
import { exactly, fixed, table } from './report.js';
import { median } from './stats.js';

/**
 * How long `bankflow --help` and `bankflow <command> --help` take, from the built CLI as users run it, next
 * to a bare `node` start measured in the same rounds: the bare start is what no lazy loading can remove.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    'target-ms': { type: 'string', default: '300' },
    'report-only': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(`npm run bench:cli [-- --rounds N] [--target-ms MS] [--report-only]

Runs \`bankflow --help\` and \`bankflow <command> --help\` for every top-level command, N rounds each (default 7),
beside a bare \`node -e 0\` in the same rounds, and prints the medians. Exits 1 when a median misses the target
(default 300 ms); --report-only prints the miss and exits 0, for CI on a shared machine, where
test/unit/cli-startup-imports.test.ts holds the cause (what a command's definition loads) without timing.`);
  process.exit(0);
}
const rounds = Number(values.rounds);
const targetMs = Number(values['target-ms']);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
if (!(targetMs > 0)) throw new Error(`--target-ms must be a positive number, got ${values['target-ms']}`);

const cli = fileURLToPath(new URL('../bin/bankflow.js', import.meta.url));
const commands = [
  [],
  ...buildProgram(await loadDevkitCommands()).commands.map((command) => [command.name()]),
];

function wallMs(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const elapsed = performance.now() - started;
  if (run.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(-500)}`);
  return elapsed;
}

const bare: number[] = [];
const samples = new Map(commands.map((command) => [command.join(' '), [] as number[]]));
for (let round = 0; round < rounds; round++) {
  bare.push(wallMs(['-e', '0']));
  for (const command of commands) samples.get(command.join(' '))!.push(wallMs([cli, ...command, '--help']));
}

const bareMedian = median(bare);
const rows = [...samples].map(([command, times]) => {
  const ms = median(times);
  return { command: `bankflow ${command ? `${command} ` : ''}--help`, ms, met: ms < targetMs };
});
console.log(`CLI help, medians of ${rounds} rounds; bare \`node -e 0\`: ${fixed(bareMedian)} ms\n`);
console.log(
  table(
    ['command', 'median ms', 'x bare node', `< ${targetMs} ms`],
    [
      ...rows.map((row) => [
        row.command,
        fixed(row.ms),
        exactly(row.ms / bareMedian),
        row.met ? 'met' : 'MISSED',
      ]),
    ],
  ),
);
const missed = rows.filter((row) => !row.met);
if (missed.length > 0) {
  console.error(`\n${missed.length} of ${rows.length} commands missed ${targetMs} ms`);
  if (!values['report-only']) process.exit(1);
}
