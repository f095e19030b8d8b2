import { randomBytes } from 'node:crypto';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { freePort, runCli, startCli, type CliResult } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { testEnvKeys } from '../setup/shared.js';

/** A secret no output could hold by chance: a label, so a failure says which one leaked, and random hex. */
const distinctive = (label: string) => `${label}-${randomBytes(16).toString('hex')}`;
const randomKey = () => randomBytes(32).toString('base64');

const secrets = {
  bankSecret: distinctive('bank-secret'),
  apiKey: distinctive('temporal-api-key'),
  liveKey: randomKey(),
  brokenKey: randomBytes(20).toString('base64'),
  codecPassword: distinctive('codec-password'),
  codecToken: distinctive('codec-token'),
  encodeToken: distinctive('encode-token'),
  webhookSecret: distinctive('webhook-secret'),
  previousWebhookSecret: distinctive('previous-webhook-secret'),
  otlpApiKey: distinctive('otlp-api-key'),
  sandboxWebhookSecret: distinctive('sandbox-webhook-secret'),
  sandboxControlToken: distinctive('sandbox-control-token'),
  shortLookupSecret: `lookup-${randomBytes(8).toString('hex')}`,
  lookupSecret: distinctive('support-lookup-secret'),
};

/** What every run prints, stdout and stderr: none of the secrets it was given, whole or as their parts. */
function expectNoSecret(output: string): void {
  for (const [name, value] of Object.entries(secrets)) {
    if (output.includes(value)) throw new Error(`${name} was printed:\n${output}`);
  }
}

const printed = (result: CliResult) => `${result.stdout}\n${result.stderr}`;

/** A production environment whose every secret variable is set, each with a distinctive value. */
const productionSecrets = {
  BANKFLOW_ENV: 'production',
  LOG_LEVEL: 'debug',
  BANK_BASE_URL: 'https://bank.example.com',
  BANK_CLIENT_ID: 'merchant-7',
  BANK_CLIENT_SECRET: secrets.bankSecret,
  TEMPORAL_API_KEY: secrets.apiKey,
  CODEC_ENCODE_TOKENS: secrets.encodeToken,
  WEBHOOK_SECRET: secrets.webhookSecret,
  WEBHOOK_SECRET_PREVIOUS: secrets.previousWebhookSecret,
  SANDBOX_WEBHOOK_SECRET: secrets.sandboxWebhookSecret,
  SANDBOX_CONTROL_TOKEN: secrets.sandboxControlToken,
};

/**
 * Malformed values: a key that is not 32 bytes, a user without a password, a header without `=`, a short
 * secret.
 */
const malformed = {
  ...productionSecrets,
  TEMPORAL_ENCRYPTION_KEYS: `live:${secrets.liveKey},broken:${secrets.brokenKey}`,
  CODEC_AUTH_USERS: `ana:${secrets.codecPassword},bob:`,
  CODEC_AUTH_TOKENS: secrets.codecToken,
  OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${secrets.otlpApiKey},${secrets.otlpApiKey}`,
  SUPPORT_LOOKUP_SECRET: secrets.shortLookupSecret,
};

/**
 * Well-formed values that production refuses: a key of one repeated byte, a weak token and a weak password.
 */
const weak = {
  ...productionSecrets,
  TEMPORAL_PLAINTEXT_ALLOWED: 'true',
  TEMPORAL_ENCRYPTION_KEYS: `live:${secrets.liveKey},zero:${Buffer.alloc(32).toString('base64')}`,
  CODEC_AUTH_USERS: `ana:${secrets.codecPassword},bob:pw`,
  CODEC_AUTH_TOKENS: `${secrets.codecToken},abc`,
  OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${secrets.otlpApiKey}`,
  SUPPORT_LOOKUP_SECRET: secrets.lookupSecret,
};

/**
 * Every command that loads the production configuration: the processes, doctor, and commands of the starter.
 */
const productionCommands = [
  ['worker'],
  ['webhooks'],
  ['codec-server'],
  ['doctor', '--json'],
  ['schedules', 'list'],
  ['support', 'find', '--tax-number', '52998224725'],
  ['payment', 'get', '--external-id', 'order-1'],
];

/** At most this many CLI processes at once: each compiles TypeScript on start. */
async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size)
    results.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  return results;
}

describe('secret values in the output of every component', () => {
  const dataDir = tempDirs('bankflow-secrets-');

  it(
    'a production process refused for malformed or weak secrets names the variable and never prints a value',
    async () => {
      const runs = productionCommands.flatMap((args) => [
        { args, env: malformed },
        { args, env: weak },
      ]);
      const results = await inBatches(runs, 4, async ({ args, env }) => ({
        args,
        env,
        result: await runCli(args, env),
      }));
      for (const { args, env, result } of results) {
        const output = printed(result);
        if (result.code === 0)
          throw new Error(`bankflow ${args.join(' ')} accepted the configuration:\n${output}`);
        expectNoSecret(output);
        if (env === malformed) {
          expect(output).toMatch(/CODEC_AUTH_USERS: entry 2 must be user:password/);
          expect(output).toMatch(/SUPPORT_LOOKUP_SECRET: must be at least 32 characters/);
          expect(output).toMatch(/OTEL_EXPORTER_OTLP_HEADERS: must be key=value pairs/);
          expect(output).toMatch(/a secret of \d+ characters, not shown/);
        } else {
          expect(output).toMatch(
            /TEMPORAL_ENCRYPTION_KEYS: holds a key that is not random bytes.*\(key zero\)/,
          );
          expect(output).toMatch(/CODEC_AUTH_USERS: needs passwords of at least 16 characters.*\(user bob\)/);
          expect(output).toMatch(/CODEC_AUTH_TOKENS: needs tokens of at least 32 characters.*\(token 2\)/);
        }
      }
    },
    cliTestTimeoutMs * 2,
  );

  it(
    'a key of the wrong size is named by its id, in every environment',
    async () => {
      const results = await inBatches([['dev'], ['sandbox'], ['demo'], ['doctor', '--json']], 4, (args) =>
        runCli(args, {
          ...malformed,
          BANKFLOW_ENV: 'development',
          CODEC_AUTH_USERS: `ana:${secrets.codecPassword}`,
          OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${secrets.otlpApiKey}`,
          SUPPORT_LOOKUP_SECRET: secrets.lookupSecret,
          BANKFLOW_DATA_DIR: dataDir(),
        }),
      );
      for (const result of results) {
        expect(result.code).not.toBe(0);
        expect(printed(result)).toMatch(/TEMPORAL_ENCRYPTION_KEYS: key broken must be 32 bytes/);
        expectNoSecret(printed(result));
      }
    },
    cliTestTimeoutMs,
  );

  it(
    'doctor --json of a valid production configuration reports unreachable services without a secret',
    async () => {
      const result = await runCli(['doctor', '--json'], {
        ...weak,
        TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
        BANK_BASE_URL: `https://127.0.0.1:${await freePort()}`,
        TEMPORAL_ENCRYPTION_KEYS: `live:${secrets.liveKey}`,
        CODEC_AUTH_USERS: `ana:${secrets.codecPassword}`,
        CODEC_AUTH_TOKENS: secrets.codecToken,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      });
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { checks: { name: string; ok: boolean }[] };
      expect(report.checks.find((check) => check.name === 'configuration')?.ok).toBe(true);
      expect(report.checks.find((check) => check.name === 'temporal')?.ok).toBe(false);
      expectNoSecret(printed(result));
    },
    cliTestTimeoutMs,
  );

  it(
    'a running production codec server at debug level logs no credential, right or wrong',
    async () => {
      const port = await freePort();
      const codec = startCli(['codec-server'], {
        ...weak,
        TEMPORAL_ENCRYPTION_KEYS: `live:${secrets.liveKey}`,
        CODEC_AUTH_USERS: `ana:${secrets.codecPassword}`,
        CODEC_AUTH_TOKENS: secrets.codecToken,
        CODEC_PORT: String(port),
      });
      try {
        await codec.waitFor(/Press Ctrl-C to stop/);
        const post = (path: string, authorization: string) =>
          fetch(`http://127.0.0.1:${port}${path}`, {
            method: 'POST',
            body: JSON.stringify({ payloads: [] }),
            headers: { 'content-type': 'application/json', authorization },
          });
        const basic = (user: string, password: string) =>
          `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
        expect((await post('/decode', basic('ana', secrets.codecPassword))).status).toBe(200);
        expect((await post('/encode', `Bearer ${secrets.codecToken}`)).status).toBe(403);
        expect((await post('/encode', `Bearer ${secrets.encodeToken}`)).status).toBe(200);
        expect((await post('/decode', `Bearer ${secrets.webhookSecret}`)).status).toBe(401);
        expect((await post(`/${secrets.codecToken}/decode`, '')).status).toBe(200);
      } finally {
        await codec.stop();
      }
      expectNoSecret(codec.output());
    },
    cliTestTimeoutMs,
  );

  it(
    '`dev` (worker, receiver, codec server, sandbox, checkout) at debug level prints no configured secret',
    async () => {
      const ports = { sandbox: await freePort(), checkout: await freePort(), codec: await freePort() };
      const taskQueue = `secret-output-${Date.now()}`;
      const dev = startCli(['dev'], {
        BANKFLOW_ENV: 'development',
        LOG_LEVEL: 'debug',
        TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '',
        TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace] ?? 'default',
        TEMPORAL_TASK_QUEUE: taskQueue,
        // Schedules of its own: the shared server holds other tests' schedules, encrypted under other keys.
        SCHEDULE_ID_PREFIX: `${taskQueue}-`,
        TEMPORAL_ENCRYPTION_KEYS: `live:${secrets.liveKey}`,
        BANK_CLIENT_SECRET: secrets.bankSecret,
        SANDBOX_PORT: String(ports.sandbox),
        SANDBOX_CONTROL_TOKEN: secrets.sandboxControlToken,
        SANDBOX_WEBHOOK_SECRET: secrets.webhookSecret,
        WEBHOOK_SECRET: secrets.webhookSecret,
        WEBHOOK_PORT: String(await freePort()),
        CODEC_PORT: String(ports.codec),
        CODEC_AUTH_USERS: `ana:${secrets.codecPassword}`,
        CODEC_AUTH_TOKENS: secrets.codecToken,
        CHECKOUT_PORT: String(ports.checkout),
        API_PORT: String(await freePort()),
        SUPPORT_LOOKUP_SECRET: secrets.lookupSecret,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
        OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${secrets.otlpApiKey}`,
        BANKFLOW_DATA_DIR: dataDir(),
      });
      try {
        await dev.waitFor(/Press Ctrl-C to stop/);
        expect((await fetch(`http://127.0.0.1:${ports.checkout}/`)).status).toBeLessThan(500);
        const sandboxAnswer = await fetch(`http://127.0.0.1:${ports.sandbox}/sandbox/faults`, {
          headers: { authorization: `Bearer ${secrets.sandboxControlToken}` },
        });
        expect(sandboxAnswer.status).toBe(200);
        const codecAnswer = await fetch(`http://127.0.0.1:${ports.codec}/decode`, {
          method: 'POST',
          body: JSON.stringify({ payloads: [] }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets.codecToken}` },
        });
        expect(codecAnswer.status).toBe(200);
      } finally {
        const code = await dev.stop('SIGTERM');
        // The output's end says why a stop failed.
        expect({ code, end: code === 0 ? '' : dev.output().slice(-3000) }).toEqual({ code: 0, end: '' });
      }
      expect(dev.output()).toMatch(/Sandbox token +SANDBOX_CONTROL_TOKEN/);
      expectNoSecret(dev.output());
    },
    cliTestTimeoutMs,
  );
});
