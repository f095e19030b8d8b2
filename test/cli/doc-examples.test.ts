import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cliNodeArgs } from '../../bench/chaos/cli-process.js';
import { cliEnvFor } from '../helpers/cli-env.js';
import { docExamples, type DocExample } from '../helpers/doc-examples.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/**
 * `npx bankflow` runs the CLI from the test run's build or from source, as `npm start`'s `npx bankflow` runs
 * the built one.
 */
const npxShim = `npx() { if [ "$1" = bankflow ]; then shift; node ${cliNodeArgs().join(' ')} "$@"; else command npx "$@"; fi; }`;

const examples = [
  ...docExamples('README.md'),
  ...docExamples('docs/cli.md'),
  ...docExamples('docs/support.md'),
];

interface Run {
  code: number | null;
  output: string;
}

/** Process groups still running: an example that hangs past its timeout is killed when the file ends. */
const running = new Set<number>();

/** Runs one example line in bash, as typed; a server is stopped with Ctrl-C once it says it is running. */
function run(example: DocExample, env: Record<string, string>): Promise<Run> {
  const child = spawn('bash', ['-c', `${npxShim}\n${example.line}`], { env, detached: true });
  if (child.pid) running.add(child.pid);
  let output = '';
  let stopped = false;
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (!example.server || stopped || !/is running|worker running/.test(output) || !child.pid) return;
    stopped = true;
    process.kill(-child.pid, 'SIGINT');
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (child.pid) running.delete(child.pid);
      resolve({ code, output });
    });
  });
}

describe('the examples of README.md and docs/cli.md, run as written', () => {
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'info',
      ...cliEnvFor(stack),
      // Servers listen on free ports and schedules get ids of their own, beside whatever else runs here.
      SANDBOX_PORT: '0',
      WEBHOOK_PORT: '0',
      CODEC_PORT: '0',
      CHECKOUT_PORT: '0',
      API_PORT: '0',
      SCHEDULE_ID_PREFIX: `docs-${randomUUID().slice(0, 8)}-`,
      REPORTS_DIR: stack.jobs.reportsDir,
    };
  });
  afterAll(async () => {
    for (const pid of running) process.kill(-pid, 'SIGKILL');
    await stack?.stop();
  });

  it('finds the examples, the README first', () => {
    expect(examples.filter((example) => example.file === 'README.md').length).toBeGreaterThan(5);
    expect(examples.filter((example) => example.file === 'docs/cli.md').length).toBeGreaterThan(40);
  });

  it.each(examples.map((example) => [`${example.file}: ${example.line}`, example] as const))(
    '%s',
    async (_, example) => {
      const result = await run(example, env);
      if (result.code !== example.exitCode) {
        throw new Error(`exited ${result.code}, expected ${example.exitCode}:\n${result.output}`);
      }
      if (example.says !== undefined) expect(result.output).toContain(example.says);
    },
    180_000,
  );
});
