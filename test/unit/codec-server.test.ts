import { defaultPayloadConverter } from '@temporalio/common';
import type { FastifyInstance } from 'fastify';
import { createCodecServer } from '../../src/codec-server/app.js';
import type { CodecAuthSettings } from '../../src/codec-server/auth.js';
import { createLogger } from '../../src/logger.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { encryptionKeys } from '../helpers/stack.js';

const uiOrigin = 'http://localhost:8233';
const codec = new EncryptionCodec(encryptionKeys, 'pass');
const servers: FastifyInstance[] = [];

async function serve(auth: Partial<CodecAuthSettings>): Promise<string> {
  const app = createCodecServer({
    codec,
    auth: { users: [], tokens: [], ...auth },
    corsOrigins: [uiOrigin],
    logger: createLogger('silent'),
  });
  servers.push(app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

afterAll(async () => {
  await Promise.all(servers.map((app) => app.close()));
});

const asJson = (payloads: Awaited<ReturnType<EncryptionCodec['encode']>>) => ({
  payloads: payloads.map((p) => ({
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? []).toString('base64'),
  })),
});

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('codec server', () => {
  it('decodes for a bearer token, encodes for an encoding one, and refuses without one', async () => {
    const url = await serve({ tokens: ['t0ken'], encodeTokens: ['enc0der'] });
    const sealed = asJson(
      await codec.encode([defaultPayloadConverter.toPayload({ tax_number: '12345678909' })]),
    );

    expect((await post(url, '/decode', sealed)).status).toBe(401);
    expect((await post(url, '/decode', sealed, { authorization: 'Bearer wrong' })).status).toBe(401);
    const decoded = await post(url, '/decode', sealed, { authorization: 'Bearer t0ken' });
    expect(decoded.status).toBe(200);
    const body = (await decoded.json()) as { payloads: { data: string }[] };
    expect(Buffer.from(body.payloads[0]?.data ?? '', 'base64').toString()).toBe(
      '{"tax_number":"12345678909"}',
    );

    const encoded = await post(url, '/encode', body, { authorization: 'Bearer enc0der' });
    const reencoded = (await encoded.json()) as { payloads: { metadata: Record<string, string> }[] };
    expect(Buffer.from(reencoded.payloads[0]?.metadata.encoding ?? '', 'base64').toString()).toBe(
      'binary/encrypted',
    );
  });

  it('answers CORS only to the configured UI origin, with credentials allowed', async () => {
    const url = await serve({ users: ['support:pw'] });
    const preflight = await fetch(`${url}/decode`, { method: 'OPTIONS', headers: { origin: uiOrigin } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-namespace');

    const other = await fetch(`${url}/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('never takes the Origin header as a credential, with or without credentials configured', async () => {
    const sealed = asJson(await codec.encode([defaultPayloadConverter.toPayload('x')]));
    for (const url of [await serve({}), await serve({ tokens: ['t0ken'] })]) {
      expect((await post(url, '/decode', sealed, { origin: uiOrigin })).status).toBe(401);
      expect((await post(url, '/decode', sealed)).status).toBe(401);
    }
  });

  it("accepts a token as the endpoint path's first segment, as a Temporal UI's codec setting carries it", async () => {
    const url = await serve({ tokens: ['t0ken'] });
    const sealed = asJson(await codec.encode([defaultPayloadConverter.toPayload('x')]));
    expect((await post(url, '/t0ken/decode', sealed, { origin: uiOrigin })).status).toBe(200);
    expect((await post(url, '/t0ken/encode', { payloads: [] })).status).toBe(403);
    expect((await post(url, '/wrong/decode', sealed, { origin: uiOrigin })).status).toBe(401);
    expect((await post(url, '/wrong/decode', sealed, { authorization: 'Bearer t0ken' })).status).toBe(401);
  });

  it('refuses /encode to every credential that may only decode: a support person reads, never mints payloads', async () => {
    const url = await serve({
      users: ['support:read-only-password'],
      tokens: ['reader'],
      encodeUsers: ['lead:may-also-encode'],
      encodeTokens: ['writer'],
    });
    const plain = asJson([defaultPayloadConverter.toPayload({ by: 'mallory', note: 'forged' })]);
    const basic = (pair: string) => ({ authorization: `Basic ${Buffer.from(pair).toString('base64')}` });
    const decodeOnly = [
      { path: '/encode', headers: basic('support:read-only-password') },
      { path: '/encode', headers: { authorization: 'Bearer reader' } },
      { path: '/reader/encode', headers: {} },
      { path: '/encode?x=1', headers: { authorization: 'Bearer reader' } },
    ];
    for (const { path, headers } of decodeOnly) {
      const refused = await post(url, path, plain, headers);
      expect([path, refused.status]).toEqual([path, 403]);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /this credential may decode only; encoding is for CODEC_ENCODE_USERS and CODEC_ENCODE_TOKENS/,
      );
    }
    const sealed = asJson(await codec.encode([defaultPayloadConverter.toPayload('x')]));
    for (const headers of [basic('support:read-only-password'), { authorization: 'Bearer reader' }])
      expect((await post(url, '/decode', sealed, headers)).status).toBe(200);
    for (const { path, headers } of [
      { path: '/encode', headers: basic('lead:may-also-encode') },
      { path: '/writer/encode', headers: {} },
      { path: '/decode', headers: { authorization: 'Bearer writer' } },
    ])
      expect([
        path,
        (await post(url, path, path.endsWith('decode') ? sealed : plain, headers)).status,
      ]).toEqual([path, 200]);
    // An encoding credential of one kind is not one of the other: a user's pair is no token.
    expect((await post(url, '/encode', plain, { authorization: 'Bearer lead:may-also-encode' })).status).toBe(
      401,
    );
    expect((await post(url, '/encode', plain, basic('writer'))).status).toBe(401);
  });

  it('names what is wrong with a body, and shows a payload under an unknown key as the marker a worker refuses', async () => {
    const url = await serve({ tokens: ['t'] });
    const auth = { authorization: 'Bearer t' };
    const bad = await post(url, '/decode', { payloads: [{ data: '***' }] }, auth);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^payloads\.0\.data: /);

    const foreign = asJson(await codec.encode([defaultPayloadConverter.toPayload('x')]));
    foreign.payloads[0]!.metadata['encryption-key-id'] = Buffer.from('gone').toString('base64');
    const shown = await post(url, '/decode', foreign, auth);
    expect(shown.status).toBe(200);
    const [marker] = ((await shown.json()) as { payloads: { data: string }[] }).payloads;
    expect(JSON.parse(Buffer.from(marker?.data ?? '', 'base64').toString())).toEqual({
      bankflowRefusedPayload: expect.stringMatching(/^does not decrypt \(unknown key id "gone"; /),
    });
  });
});
