import { request } from 'node:http';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/app.js';
import { sandboxCredentials, testLogger } from '../helpers/stack.js';

/** One request with the Host header given, which fetch does not let a caller choose. */
function get(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { host, ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    )
      .on('error', reject)
      .end();
  });
}

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
});
