import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { sandboxCredentials, testLogger } from '../helpers/stack.js';

interface Sent {
  method?: string;
  /** Sent byte for byte: fetch and URL would resolve `..` and `.` segments before the sandbox saw them. */
  path?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One request with the Host header and the path given as is, which fetch does not let a caller choose. */
function send(url: string, host: string, sent: Sent = {}): Promise<number> {
  const target = new URL(url);
  const body = sent.body === undefined ? undefined : JSON.stringify(sent.body);
  return new Promise((resolve, reject) => {
    request(
      {
        host: target.hostname,
        port: target.port,
        method: sent.method ?? 'GET',
        path: sent.path ?? target.pathname,
        headers: {
          host,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...sent.headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    )
      .on('error', reject)
      .end(body);
  });
}

const get = (url: string, host: string, headers: Record<string, string> = {}) => send(url, host, { headers });

describe('who may reach the sandbox and its control API', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 42,
      credentials: sandboxCredentials,
      logger: testLogger(),
      access: { controlToken: 'control-t0ken', hosts: ['sandbox.internal'] },
    });
  });
  afterAll(() => sandbox?.stop());

  const call = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it('refuses the control API without the token or with a wrong one, naming what to send', async () => {
    const missing = await call('/sandbox/reset');
    expect(missing.status).toBe(401);
    expect(JSON.stringify(await missing.json())).toMatch(/Authorization: Bearer <token>.*Sandbox token/);
    expect((await call('/sandbox/reset', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('/sandbox/reset', { authorization: 'Basic control-t0ken' })).status).toBe(401);
    expect((await call('/sandbox/reset', { authorization: 'Bearer control-t0ken' })).status).toBe(200);

    const redirect = await fetch(`${sandbox.url}/sandbox/webhooks/config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://attacker.example/hook' }),
    });
    expect(redirect.status).toBe(401);
    expect((await fetch(`${sandbox.url}/sandbox/world`)).status).toBe(401);
  });

  it("leaves the customer's hosted pages to the browser, and the bank API to its Basic auth", async () => {
    expect((await fetch(`${sandbox.url}/sandbox/pages/widget.js`)).status).toBe(200);
    const basic = `Basic ${Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString('base64')}`;
    expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
    expect(await get(`${sandbox.url}/banking/metric`, '127.0.0.1', { authorization: basic })).not.toBe(403);
  });

  it('answers only to loopback names and its configured host, so a rebound DNS name reaches nothing', async () => {
    const port = new URL(sandbox.url).port;
    const bearer = { authorization: 'Bearer control-t0ken' };
    expect(await get(`${sandbox.url}/sandbox/faults`, `localhost:${port}`, bearer)).toBe(200);
    expect(await get(`${sandbox.url}/sandbox/faults`, `sandbox.internal:${port}`, bearer)).toBe(200);
    expect(await get(`${sandbox.url}/sandbox/faults`, `attacker.example:${port}`, bearer)).toBe(403);
    expect(await get(`${sandbox.url}/healthz`, `attacker.example:${port}`)).toBe(403);
    expect(await get(`${sandbox.url}/sandbox/pages/widget.js`, 'attacker.example')).toBe(403);
  });

  describe('whatever spelling of the path reaches a control route', () => {
    const bearer = { authorization: 'Bearer control-t0ken' };
    const attackerHook = { url: 'https://attacker.example/hook', secret: 'attacker-secret' };
    const forgedEvent = {
      category: 'biometric_payment',
      type: 'settled',
      ref_id: randomUUID(),
      data: { id: randomUUID(), status: 'settled' },
    };
    /** Each control call an attacker wants, and the spellings of its path a router may decode to it. */
    const attacks: { method: string; paths: string[]; body?: unknown }[] = [
      {
        method: 'PUT',
        body: attackerHook,
        paths: [
          '/%73andbox/webhooks/config',
          '/sandbox/%77ebhooks/config',
          '/sandbox/webhooks/%63onfig',
          '/%73%61%6E%64%62%6F%78/webhooks/config',
          '/%73%61%6e%64%62%6f%78/webhooks/config',
          '/%53andbox/webhooks/config',
          '/%2573andbox/webhooks/config',
          '/sandbox%2Fwebhooks%2Fconfig',
          '/sandbox/webhooks/config/',
          '/%73andbox/webhooks/config/',
          '//sandbox/webhooks/config',
          '/./sandbox/webhooks/config',
          '/sandbox/pages/../webhooks/config',
          '/sandbox/pages/%2e%2e/webhooks/config',
          '/SANDBOX/webhooks/config',
          '/sandbox/webhooks/config;x',
          '/sandbox/webhooks/config%00',
        ],
      },
      {
        method: 'PUT',
        body: { error_rate: 1 },
        paths: ['/%73andbox/faults', '/sandbox/%66aults', '/%73andbox/faults/', '/%2573andbox/faults'],
      },
      { method: 'GET', paths: ['/%73andbox/faults', '/%73andbox/world', '/sandbox/%77orld'] },
      { method: 'POST', body: {}, paths: ['/%73andbox/reset', '/sandbox/%72eset', '/%73andbox/reset?x=1'] },
      {
        method: 'POST',
        body: forgedEvent,
        paths: ['/%73andbox/webhooks/events', '/sandbox/webhooks/%65vents', '/sandbox/%77ebhooks/events/'],
      },
      {
        method: 'POST',
        body: {},
        paths: [
          '/%73andbox/biometrics/enrollments/x/revoke',
          '/sandbox/biometrics/enrollments/x/%72evoke',
          '/sandbox/biometrics/%65nrollments/x/expire',
        ],
      },
    ];

    /**
     * The bank API's Basic credentials, which the worker holds and the development sandbox's are public: a
     * path the guard took for the bank's reached the control route with them alone.
     */
    const bankCredentials = {
      authorization: `Basic ${Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString('base64')}`,
    };

    it('refuses every spelling without the token, even with the bank API credentials (401, or 404 where no route matches), and changes nothing', async () => {
      const host = new URL(sandbox.url).host;
      const answers: string[] = [];
      for (const { method, paths, body } of attacks) {
        for (const path of paths) {
          const status = await send(sandbox.url, host, { method, path, body, headers: bankCredentials });
          answers.push(`${method} ${path} ${status === 401 || status === 404 ? 'refused' : status}`);
        }
      }
      expect(answers).toEqual(
        attacks.flatMap(({ method, paths }) => paths.map((path) => `${method} ${path} refused`)),
      );

      const control = { headers: bearer };
      const config = await fetch(`${sandbox.url}/sandbox/webhooks/config`, control);
      expect(((await config.json()) as { data: { url: unknown } }).data.url).not.toBe(attackerHook.url);
      const faults = await fetch(`${sandbox.url}/sandbox/faults`, control);
      expect(
        ((await faults.json()) as { data: { settings: { error_rate: number } } }).data.settings.error_rate,
      ).toBe(0);
      const events = await fetch(
        `${sandbox.url}/sandbox/webhooks/events?ref_id=${forgedEvent.ref_id}`,
        control,
      );
      expect(((await events.json()) as { data: unknown[] }).data).toEqual([]);
    });

    it('decides on the route matched: an encoded path to a customer route needs no token, one to a control route does', async () => {
      const host = new URL(sandbox.url).host;
      const unknownId = randomUUID();
      expect(await send(sandbox.url, host, { path: '/sandbox/%70ages/widget.js' })).toBe(200);
      // The enrollment's "reject" button is the customer's; its other actions, on the same route, are the
      // control API's.
      const reject = { method: 'POST', body: {} };
      expect(
        await send(sandbox.url, host, {
          ...reject,
          path: `/sandbox/biometrics/enrollments/${unknownId}/%72eject`,
        }),
      ).toBe(404);
      expect(
        await send(sandbox.url, host, {
          ...reject,
          path: `/sandbox/biometrics/enrollments/${unknownId}/revoke`,
        }),
      ).toBe(401);
      expect(
        await send(sandbox.url, host, {
          ...reject,
          path: `/sandbox/biometrics/enrollments/${unknownId}/revoke`,
          headers: bearer,
        }),
      ).toBe(404);
      expect(await send(sandbox.url, host, { path: `/sandbox/bank-authorization/${unknownId}` })).toBe(404);
      expect(await send(sandbox.url, host, { path: `/sandbox/registration/${unknownId}/options` })).toBe(404);
      expect(await send(sandbox.url, host, { path: '/sandbox/w%69dget' })).not.toBe(401);
    });
  });
});
