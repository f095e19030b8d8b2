import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { BankClient } from '../../src/bank/client.js';
import { defaultPayloadConverter } from '@temporalio/common';
import { signWebhookBody } from '../../src/bank/webhook-signature.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { SandboxState } from '../../devkit/sandbox/state.js';
import { cancelBoleto } from '../../src/starter/index.js';
import {
  cleanExit,
  freePort,
  isListening,
  runCli,
  startCli,
  stopCli,
  type StoppedCli,
} from '../helpers/cli.js';
import { productionEnv } from '../helpers/config-env.js';
import {
  encryptionKeys,
  sandboxCredentials,
  startTestStack,
  testLogger,
  type TestStack,
} from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { testEnvKeys } from '../setup/shared.js';

const temporalEnv = () => ({
  TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '',
  TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace] ?? 'default',
});
const bankEnv = {
  BANK_CLIENT_ID: sandboxCredentials.clientId,
  BANK_CLIENT_SECRET: sandboxCredentials.clientSecret,
};

/** The first boleto a sandbox seeded with 42 holds: ids depend only on the seed. */
const seededBoletoId = () => [...new SandboxState({ seed: 42 }).boletos.keys()][0] ?? '';

describe('long-running commands', () => {
  const dataDir = tempDirs('bankflow-dev-');
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('`dev` against an existing Temporal server runs the sandbox and a worker, and stops on SIGTERM', async () => {
    const [sandboxPort, apiPort] = [await freePort(), await freePort()];
    const taskQueue = `cli-dev-${Date.now()}`;
    const dev = startCli(['dev'], {
      ...temporalEnv(),
      ...bankEnv,
      SANDBOX_PORT: String(sandboxPort),
      WEBHOOK_PORT: String(await freePort()),
      CODEC_PORT: String(await freePort()),
      CHECKOUT_PORT: String(await freePort()),
      API_PORT: String(apiPort),
      TEMPORAL_TASK_QUEUE: taskQueue,
      // Schedules of its own: the shared server holds other tests' schedules under the default ids.
      SCHEDULE_ID_PREFIX: `${taskQueue}-`,
      BANKFLOW_DATA_DIR: dataDir(),
    });
    let exit: StoppedCli | undefined;
    try {
      await dev.waitFor(/Press Ctrl-C to stop/);
      expect(dev.output()).toMatch(new RegExp(`Sandbox bank +http://127\\.0\\.0\\.1:${sandboxPort}`));
      expect(dev.output()).not.toContain('Temporal UI');
      expect(dev.output()).toMatch(/Webhook receiver +http:\/\/127\.0\.0\.1:\d+\/webhooks/);
      // The merchant API, opened by the development key the banner prints.
      expect(dev.output()).toMatch(new RegExp(`Merchant API +http://127\\.0\\.0\\.1:${apiPort}`));
      const apiKey = /API key \(development\) +(bf_dev_\S+)/.exec(dev.output())?.[1];
      const participants = await fetch(`http://127.0.0.1:${apiPort}/v1/participants`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(participants.status).toBe(200);

      const boleto = await cancelBoleto({ client: stack.client, taskQueue }, { boletoId: seededBoletoId() });
      expect(boleto.status).toBe('cancelled');
    } finally {
      exit = await stopCli(dev, 'SIGTERM');
    }
    expect(exit).toEqual(cleanExit);
    expect(await isListening(sandboxPort)).toBe(false);
  });

  it('`dev` with the embedded Temporal dev server serves the UI and leaves no listener after Ctrl-C', async () => {
    const [grpcPort, uiPort, sandboxPort, codecPort, checkoutPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const dev = startCli(['dev'], {
      ...bankEnv,
      TEMPORAL_DEV_PORT: String(grpcPort),
      TEMPORAL_UI_PORT: String(uiPort),
      SANDBOX_PORT: String(sandboxPort),
      WEBHOOK_PORT: String(await freePort()),
      CODEC_PORT: String(codecPort),
      CHECKOUT_PORT: String(checkoutPort),
      API_PORT: String(await freePort()),
      BANKFLOW_DATA_DIR: dataDir(),
    });
    let exit: StoppedCli | undefined;
    try {
      await dev.waitFor(/Press Ctrl-C to stop/, 90_000);
      expect(dev.output()).toMatch(new RegExp(`Temporal UI +http://localhost:${uiPort}`));
      expect(dev.output()).toMatch(new RegExp(`Checkout page +http://localhost:${checkoutPort}`));
      const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
      expect(ui.status).toBe(200);
      const uiSettings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as {
        Codec: { Endpoint: string };
      };
      // The UI reaches the codec server with the token this run generated and printed; an Origin alone is
      // refused.
      const token = /Codec token +([0-9a-f]{48})/.exec(dev.output())?.[1];
      expect(uiSettings.Codec.Endpoint).toBe(`http://127.0.0.1:${codecPort}/${token}`);
      const decode = (path: string) =>
        fetch(`http://127.0.0.1:${codecPort}${path}`, {
          method: 'POST',
          body: JSON.stringify({ payloads: [] }),
          headers: { 'content-type': 'application/json', origin: `http://localhost:${uiPort}` },
        });
      expect((await decode('/decode')).status).toBe(401);
      expect((await decode(`/${token}/decode`)).status).toBe(200);

      const cancel = await runCli(['boleto', 'cancel', seededBoletoId()], {
        ...bankEnv,
        TEMPORAL_ADDRESS: `127.0.0.1:${grpcPort}`,
      });
      expect(cancel.code).toBe(0);
      expect(JSON.parse(cancel.stdout)).toMatchObject({ status: 'cancelled' });
    } finally {
      exit = await stopCli(dev, 'SIGINT');
    }
    expect(exit).toEqual(cleanExit);
    for (const port of [grpcPort, uiPort, sandboxPort, codecPort, checkoutPort])
      expect(await isListening(port)).toBe(false);
  }, 120_000);

  it('`webhooks` accepts signed bank events until SIGTERM, and refuses to start without a secret in production', async () => {
    const port = await freePort();
    const receiver = startCli(['webhooks'], {
      ...temporalEnv(),
      WEBHOOK_PORT: String(port),
      WEBHOOK_SECRET: 'cli-secret',
    });
    let exit: StoppedCli | undefined;
    try {
      await receiver.waitFor(/Press Ctrl-C to stop/);
      const body = JSON.stringify({
        category: 'cli_test',
        type: 'created',
        ref_id: '0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
        timestamp: new Date().toISOString(),
        data: {},
      });
      const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-webhook-signature': signWebhookBody(body, 'cli-secret'),
        },
      });
      expect(response.status).toBe(202);
    } finally {
      exit = await stopCli(receiver);
    }
    expect(exit).toEqual(cleanExit);
    expect(await isListening(port)).toBe(false);

    const production = await runCli(['webhooks'], {
      ...temporalEnv(),
      BANKFLOW_ENV: 'production',
      BANK_BASE_URL: 'https://bank.example.com',
      BANK_CLIENT_ID: 'merchant-7',
      BANK_CLIENT_SECRET: 'issued-secret-of-the-bank',
      // The test server speaks plaintext on loopback.
      TEMPORAL_PLAINTEXT_ALLOWED: 'true',
      TEMPORAL_ENCRYPTION_KEYS: `prod-1:${randomBytes(32).toString('base64')}`,
      CODEC_AUTH_TOKENS: randomBytes(32).toString('base64'),
      SUPPORT_LOOKUP_SECRET: randomBytes(32).toString('base64'),
      WEBHOOK_PORT: String(port),
    });
    expect(production.code).toBe(1);
    expect(production.stderr).toMatch(/WEBHOOK_SECRET: is required/);
  });

  it('`api` serves the merchant API to the keys `api-key create` mints until SIGTERM, and refuses to start without a key in production', async () => {
    const minted = await runCli(['api-key', 'create', 'cli-backend']);
    expect(minted.code).toBe(0);
    // In development (as runCli runs it): a bf_dev_ key, and the API_KEYS setting that gives it to npm start.
    const key = /^ {2}(bf_dev_\S+)$/m.exec(minted.stdout)?.[1] ?? '';
    const entry = /^ {2}API_KEYS=(cli-backend:[0-9a-f]{64}) npm start$/m.exec(minted.stdout)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(entry).not.toContain(key);
    const port = await freePort();
    const api = startCli(['api'], {
      ...temporalEnv(),
      ...bankEnv,
      BANK_BASE_URL: stack.sandbox.url,
      API_PORT: String(port),
      API_KEYS: entry,
    });
    let exit: StoppedCli | undefined;
    try {
      await api.waitFor(/Press Ctrl-C to stop/);
      expect(api.output()).toMatch(new RegExp(`Merchant API +http://127\\.0\\.0\\.1:${port}`));
      // API_KEYS set: the development key opens nothing, and the banner does not print it.
      expect(api.output()).not.toContain('bf_dev_');
      const participants = (token: string) =>
        fetch(`http://127.0.0.1:${port}/v1/participants`, { headers: { authorization: `Bearer ${token}` } });
      expect((await participants(key)).status).toBe(200);
      expect((await participants('bf_dev_development-only-api-key-never-in-production')).status).toBe(401);
    } finally {
      exit = await stopCli(api);
    }
    expect(exit).toEqual(cleanExit);
    expect(await isListening(port)).toBe(false);

    const production = await runCli(['api'], {
      ...temporalEnv(),
      ...productionEnv(),
      // The test server speaks plaintext on loopback.
      TEMPORAL_PLAINTEXT_ALLOWED: 'true',
      API_PORT: String(port),
    });
    expect(production.code).toBe(1);
    expect(production.stderr).toMatch(/API_KEYS: is required to start the merchant API/);
  });

  it('`codec-server` decrypts payloads for signed-in support staff only', async () => {
    const port = await freePort();
    const codec = startCli(['codec-server'], {
      CODEC_PORT: String(port),
      CODEC_AUTH_USERS: 'support:s3cret',
    });
    let exit: StoppedCli | undefined;
    try {
      await codec.waitFor(/Press Ctrl-C to stop/);
      const [sealed] = await new EncryptionCodec(encryptionKeys, 'refuse').encode([
        defaultPayloadConverter.toPayload('Maria'),
      ]);
      const body = JSON.stringify({
        payloads: [
          {
            metadata: Object.fromEntries(
              Object.entries(sealed?.metadata ?? {}).map(([k, v]) => [
                k,
                Buffer.from(v ?? []).toString('base64'),
              ]),
            ),
            data: Buffer.from(sealed?.data ?? []).toString('base64'),
          },
        ],
      });
      const decode = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/decode`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...headers },
        });
      const anonymous = await decode({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
      const signedIn = await decode({
        authorization: `Basic ${Buffer.from('support:s3cret').toString('base64')}`,
      });
      expect(signedIn.status).toBe(200);
      const decoded = (await signedIn.json()) as { payloads: { data: string }[] };
      expect(Buffer.from(decoded.payloads[0]?.data ?? '', 'base64').toString()).toBe('"Maria"');
    } finally {
      exit = await stopCli(codec);
    }
    expect(exit).toEqual(cleanExit);
    expect(await isListening(port)).toBe(false);
  });

  it('`sandbox` serves the Banking API with Basic auth, and its control API with the token it prints, until SIGTERM', async () => {
    const port = await freePort();
    const data = dataDir();
    const sandbox = startCli(['sandbox'], {
      ...bankEnv,
      SANDBOX_PORT: String(port),
      BANKFLOW_DATA_DIR: data,
    });
    let exit: StoppedCli | undefined;
    try {
      await sandbox.waitFor(/Press Ctrl-C to stop/);
      const token = /Control token +([0-9a-f]{48})/.exec(sandbox.output())?.[1] ?? '';
      expect(readFileSync(path.join(data, 'sandbox-control-token'), 'utf8').trim()).toBe(token);
      const world = (authorization: string) =>
        fetch(`http://127.0.0.1:${port}/sandbox/world`, { headers: { authorization } });
      expect((await world('Bearer wrong')).status).toBe(401);
      expect((await world(`Bearer ${token}`)).status).toBe(200);
      // Another command of the same user finds the token in the data directory.
      const ids = await runCli(['sandbox', 'ids', 'boletos'], {
        ...bankEnv,
        BANK_BASE_URL: `http://127.0.0.1:${port}`,
        BANKFLOW_DATA_DIR: data,
      });
      expect(ids.code).toBe(0);
      expect(ids.stdout.split('\n')[0]).toBe(seededBoletoId());
      const bank = new BankClient(
        { ...sandboxCredentials, timeoutMs: 5000, baseUrl: `http://127.0.0.1:${port}` },
        testLogger(),
      );
      expect((await bank.cancelBoleto(seededBoletoId())).status).toBe('cancelled');
    } finally {
      exit = await stopCli(sandbox);
    }
    expect(exit).toEqual(cleanExit);
    expect(await isListening(port)).toBe(false);
  });

  it('`worker` serves the task queue against the configured bank until SIGTERM', async () => {
    const taskQueue = `cli-worker-${Date.now()}`;
    const worker = startCli(['worker'], {
      ...temporalEnv(),
      ...bankEnv,
      BANK_BASE_URL: stack.sandbox.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'info',
    });
    let exit: StoppedCli | undefined;
    try {
      await worker.waitFor(/worker running/);
      const boletoId = [...stack.sandbox.state.boletos.keys()][20] ?? '';
      const boleto = await cancelBoleto({ client: stack.client, taskQueue }, { boletoId });
      expect(boleto.status).toBe('cancelled');
    } finally {
      exit = await stopCli(worker);
    }
    expect(exit).toEqual(cleanExit);
  });

  it('`temporal-cli` prints the path of a working Temporal CLI', async () => {
    const result = await runCli(['temporal-cli']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/\/temporal$/);
  });

  it('`temporal-cli` works in production before anything is configured: CI fetches the CLI first', async () => {
    const result = await runCli(['temporal-cli'], { BANKFLOW_ENV: 'production' });
    expect(result.stderr).not.toContain('Invalid configuration');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/\/temporal$/);
  });
});
