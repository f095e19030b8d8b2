#!/usr/bin/env node
// ESLint, Prettier and the type check side by side: each is one process on one core, and none reads what
// another writes, so on a machine with cores to spare `npm run lint` takes as long as ESLint alone. Each
// tool's output is printed whole once it ends, in this order, and the run fails when any of them failed.
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const checks = [
  ['eslint', ['.']],
  ['prettier', ['--check', '.']],
  ['tsc', ['--noEmit']],
];

const runs = checks.map(
  ([tool, args]) =>
    new Promise((resolve) => {
      const child = spawn(bin(tool), args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) =>
        resolve({ command: `${tool} ${args.join(' ')}`, code: 1, output: `${error}\n` }),
      );
      child.on('close', (code, signal) =>
        resolve({ command: `${tool} ${args.join(' ')}`, code: code ?? signal, output }),
      );
    }),
);

let failed = false;
for (const run of runs) {
  const { command, code, output } = await run;
  process.stdout.write(`> ${command}\n${output}`);
  if (code !== 0) {
    failed = true;
    console.error(`${command} failed (${code})`);
  }
}
process.exit(failed ? 1 : 0);
