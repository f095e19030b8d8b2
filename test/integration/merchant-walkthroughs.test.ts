import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { createApiServer } from '../../src/api/app.js';
import { mintApiKey } from '../../src/api/keys.js';
import { developmentSupportLookupSecret } from '../../src/development.js';
import { freePort, outputOf, type CliResult } from '../helpers/cli.js';
import { bankFor } from '../helpers/journey.js';
import { startTestStack, testLogger, type TestStack } from '../helpers/stack.js';

const key = mintApiKey('walkthrough');
const notifySecret = 'walkthrough-notification-secret-0123456789';

/** Every ```sh block of one section of a page, in order: what a merchant would paste into one shell. */
function shellBlocks(file: string, section: string): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`${file} has no section "${section}"`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

/** Runs `command` to its end with only `env` (and PATH, HOME) set. */
function run(command: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  child.stdin.end();
  return outputOf(child);
}

describe('a merchant backend in another language, through bankflow api', () => {
  let stack: TestStack;
  let api: FastifyInstance;
  let env: Record<string, string>;
  let notifyPort: number;

  beforeAll(async () => {
    // The Python backend receives the notifications on this port once it runs.
    notifyPort = await freePort();
    stack = await startTestStack({
      receiver: true,
      notifications: {
        endpoints: [`http://127.0.0.1:${notifyPort}/notifications`],
        secrets: [notifySecret],
      },
    });
    api = await createApiServer({
      // As `bankflow api` runs: connectStarter gives the starter the support lookup secret.
      starter: { ...stack, customerKeySecret: developmentSupportLookupSecret },
      bank: { bank: bankFor(stack) },
      keys: [key.entry],
      rateLimitPerMinute: 1_000,
      logger: testLogger(),
    });
    env = {
      BANKFLOW_API_URL: await api.listen({ host: '127.0.0.1', port: 0 }),
      BANKFLOW_API_KEY: key.key,
      SANDBOX_URL: stack.sandbox.url,
      // The test's sandbox takes no control token: any value passes. The one name the walkthrough and the
      // Python example read it by: a walkthrough naming another fails on its unset variable (bash -u).
      SANDBOX_CONTROL_TOKEN: 'unused',
    };
  });
  afterAll(async () => {
    await api?.close();
    await stack?.stop();
  });

  it("runs docs/merchant-api.md's curl walkthrough verbatim: a settled payment", async () => {
    const script = shellBlocks('docs/merchant-api.md', 'The whole journey with curl');
    // --norc: node's stdio pipes are sockets, which bash takes for rshd and would read the system bashrc for.
    const walked = await run('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], env);
    expect({ code: walked.code, stderr: walked.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = walked.stdout.trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { ok: true, status: 'authorized' },
      { ok: true, status: 'awaiting_payment' },
      { outcome: 'settled', endToEndId: expect.stringMatching(/^E\d{8}/) },
    ]);
  }, 300_000);

  it('runs the Python merchant backend (standard library only): a settled payment, its key repeated and reused, every notification signed and in order', async () => {
    const journey = await run('python3', ['examples/python/merchant_backend.py'], {
      ...env,
      NOTIFY_SECRET: notifySecret,
      NOTIFY_PORT: String(notifyPort),
    });
    expect({ code: journey.code, stderr: journey.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(journey.stdout)).toMatchObject({
      authorizeStatus: 'awaiting_payment',
      outcome: 'settled',
      endToEndId: expect.stringMatching(/^E\d{8}/),
      idempotentRepeat: true,
      conflictStatus: 409,
      conflictFields: ['amountCents'],
      notifications: [
        { type: 'payment.created', sequence: 1 },
        { type: 'payment.awaiting_authorization', sequence: 2 },
        { type: 'payment.authorized', sequence: 3 },
        { type: 'payment.settled', sequence: 4 },
      ].map((event) => expect.objectContaining(event)),
      refusedNotifications: 0,
      changedNotifications: [],
    });
  }, 300_000);
});
