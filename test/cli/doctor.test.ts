import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { mintApiKey } from '../../src/api/keys.js';
import { loadConfig } from '../../src/config.js';
import { developmentWebhookSecret } from '../../src/development.js';
import { applySchedules } from '../../src/starter/index.js';
import { connectClient } from '../../src/temporal/connection.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { freePort, runCli } from '../helpers/cli.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/** The sandbox behind TLS on localhost, with a certificate the CLI trusts through NODE_EXTRA_CA_CERTS. */
async function httpsInFrontOf(
  target: string,
  dir: string,
): Promise<{ url: string; caPath: string; server: Server }> {
  const [keyPath, caPath] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      keyPath,
      '-out',
      caPath,
    ],
    { stdio: 'ignore' },
  );
  const upstream = new URL(target);
  const server = createServer({ key: readFileSync(keyPath), cert: readFileSync(caPath) }, (req, res) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://localhost:${(server.address() as AddressInfo).port}`, caPath, server };
}

const key = () => randomBytes(32).toString('base64');

describe('bankflow doctor', () => {
  const tempDir = tempDirs('bankflow-doctor-');
  let stack: TestStack;
  let https: Awaited<ReturnType<typeof httpsInFrontOf>>;
  beforeAll(async () => {
    stack = await startTestStack();
    https = await httpsInFrontOf(stack.sandbox.url, tempDir());
  });
  afterAll(async () => {
    https?.server.close();
    await stack?.stop();
  });

  it(
    'in development, passes for a starter against the test stack, and names the fix of what fails',
    async () => {
      const env = cliEnvFor(stack);
      const starter = await runCli(['doctor', '--as', 'starter'], env);
      expect(starter.code).toBe(0);
      expect(starter.stdout).toMatch(/BANKFLOW_ENV=development, as starter/);
      for (const name of [
        'configuration',
        'temporal',
        'namespace and search attributes',
        'bank',
        'encryption keys',
      ])
        expect(starter.stdout).toMatch(new RegExp(`pass  ${name} `));
      expect(starter.stdout).toMatch(/all checks passed/);

      const wrong = await runCli(['doctor', '--as', 'starter', '--json'], {
        ...env,
        BANK_CLIENT_SECRET: 'wrong',
      });
      expect(wrong.code).toBe(1);
      const report = JSON.parse(wrong.stdout) as {
        ok: boolean;
        checks: { name: string; ok: boolean; fix?: string }[];
      };
      expect(report.ok).toBe(false);
      expect(report.checks.find((check) => check.name === 'bank')).toMatchObject({
        ok: false,
        fix: 'check BANK_BASE_URL, BANK_CLIENT_ID and BANK_CLIENT_SECRET',
      });

      const unreachable = await runCli(['doctor', '--as', 'receiver'], {
        ...env,
        TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stdout).toMatch(/FAIL {2}temporal +cannot reach 127\.0\.0\.1:\d+/);
      expect(unreachable.stdout).toMatch(/fix: check TEMPORAL_ADDRESS/);
      expect(unreachable.stdout).toMatch(
        /pass {2}webhook secret +the public development secret \(development only\)/,
      );

      const api = await runCli(['doctor', '--as', 'api'], env);
      expect(api.code).toBe(0);
      expect(api.stdout).toMatch(/pass {2}bank /);
      expect(api.stdout).toMatch(/pass {2}api keys +the public development key \(development only\)/);
    },
    cliTestTimeoutMs,
  );

  it(
    'in production, fails until the schedules are applied, then passes every check; refuses development values',
    async () => {
      const production = {
        ...cliEnvFor(stack),
        BANKFLOW_ENV: 'production',
        BANK_BASE_URL: https.url,
        NODE_EXTRA_CA_CERTS: https.caPath,
        // The test server speaks plaintext on loopback.
        TEMPORAL_PLAINTEXT_ALLOWED: 'true',
        TEMPORAL_ENCRYPTION_KEYS: `prod-2:${key()},prod-1:${key()}`,
        CODEC_AUTH_TOKENS: key(),
        WEBHOOK_SECRET: key(),
        SUPPORT_LOOKUP_SECRET: key(),
        SCHEDULE_ID_PREFIX: `doctor-${randomUUID().slice(0, 8)}-`,
        API_KEYS: `${mintApiKey('checkout').configEntry},${mintApiKey('reports').configEntry}`,
      };
      const before = await runCli(['doctor'], production);
      expect(before.code).toBe(1);
      expect(before.stdout).toMatch(/BANKFLOW_ENV=production, as all/);
      expect(before.stdout).toMatch(/FAIL {2}schedules +\S+attempts-sync missing/);
      expect(before.stdout).toMatch(/fix: start a worker with bankflow dev, or run bankflow schedules apply/);

      const config = loadConfig(production);
      const client = await connectClient(config.temporal);
      try {
        await applySchedules({ client, taskQueue: config.temporal.taskQueue, schedules: config.schedules });
      } finally {
        await client.connection.close();
      }
      const after = await runCli(['doctor', '--json'], production);
      expect(after.code).toBe(0);
      const report = JSON.parse(after.stdout) as { ok: boolean; checks: { name: string; ok: boolean }[] };
      expect(report.checks.map((check) => [check.name, check.ok])).toEqual([
        ['configuration', true],
        ['temporal', true],
        ['namespace and search attributes', true],
        ['schedules', true],
        ['worker deployment', true],
        ['current version', true],
        ['pinned runs', true],
        ['bank', true],
        ['merchant notifications', true],
        ['webhook secret', true],
        ['encryption keys', true],
        ['codec server auth', true],
        ['api keys', true],
      ]);
      expect(after.stdout).toContain('2 key(s): checkout, reports');

      const withoutKeys = await runCli(['doctor', '--as', 'api'], { ...production, API_KEYS: '' });
      expect(withoutKeys.code).toBe(1);
      expect(withoutKeys.stdout).toMatch(
        /FAIL {2}api keys +API_KEYS is unset: bankflow api refuses to start/,
      );
      expect(withoutKeys.stdout).toMatch(/fix: mint a key with bankflow api-key create <name>/);

      const development = await runCli(['doctor'], {
        ...production,
        WEBHOOK_SECRET: developmentWebhookSecret,
      });
      expect(development.code).toBe(1);
      expect(development.stdout).toMatch(
        /FAIL {2}configuration +WEBHOOK_SECRET: is the public development secret/,
      );
    },
    cliTestTimeoutMs,
  );
});
