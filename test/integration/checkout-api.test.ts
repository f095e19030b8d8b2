import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createCheckout } from '../../src/checkout/app.js';
import { httpCall } from '../helpers/http.js';
import { bankFor, world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const widgetUrl = 'http://localhost:4999/sandbox/widget';

describe('reference checkout backend over the real stack', () => {
  let stack: TestStack;
  let checkout: FastifyInstance;

  let checkoutUrl: string;

  const call = async (method: 'GET' | 'POST', path: string, payload?: object) => {
    const answer = await httpCall(`${checkoutUrl}${path}`, {
      method,
      headers: payload ? { 'content-type': 'application/json' } : {},
      body: payload ? JSON.stringify(payload) : undefined,
    });
    return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
  };

  const newDevice = async () =>
    (
      await call('POST', '/api/device', {
        fingerprint: randomUUID(),
        counterparty_tax_number: '12345678909',
        counterparty_name: 'Maria Silva',
      })
    ).body.deviceId as string;

  beforeAll(async () => {
    stack = await startTestStack();
    checkout = createCheckout({
      starter: stack,
      bank: { bank: bankFor(stack) },
      merchant: world(stack),
      widgetUrl,
      logger: stack.logger,
    });
    await checkout.listen({ host: 'localhost', port: 0 });
    const address = checkout.server.address();
    checkoutUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await checkout?.close();
    await stack?.stop();
  });

  it('serves the page, its script and style, and the widget it embeds', async () => {
    const page = await httpCall(`${checkoutUrl}/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script type="module" src="/checkout.js"></script>');
    const script = await httpCall(`${checkoutUrl}/checkout.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await httpCall(`${checkoutUrl}/checkout.css`)).statusCode).toBe(200);
    expect(await call('GET', '/api/config')).toEqual({ status: 200, body: { widgetUrl } });
  });

  it('lists the participants for a device, and starts an enrollment returning to the page', async () => {
    const deviceId = await newDevice();
    const participants = (await httpCall(`${checkoutUrl}/api/participants?deviceId=${deviceId}`)).json() as {
      id: string;
      available: boolean;
      enrolled: boolean;
    }[];
    expect(participants).toHaveLength(stack.sandbox.state.biometrics.participants.length);
    const open = participants.find((participant) => participant.available);
    expect(open).toMatchObject({ enrolled: false });

    const started = await call('POST', '/api/enrollments', { deviceId, participantId: open?.id });
    expect(started.status).toBe(200);
    expect(started.body.redirectUrl).toBe(
      `${stack.sandbox.url}/sandbox/bank-authorization/${String(started.body.enrollmentId)}`,
    );
    const entry = stack.sandbox.state.biometrics.enrollments.get(String(started.body.enrollmentId));
    expect(entry?.returnToUrl).toBe(`${checkoutUrl}/?enrolled=${open?.id}`);

    const state = await call('GET', `/api/enrollment?deviceId=${deviceId}&participantId=${open?.id}`);
    expect(state.body).toMatchObject({ phase: 'awaiting_account_holder_validation', reason: null });
  });

  it('answers failures with their reason: bad input, nothing started, an enrollment not yet authorized', async () => {
    const deviceId = await newDevice();
    const participantId = stack.sandbox.state.biometrics.participants[0]?.id;
    expect(await call('GET', `/api/enrollment?deviceId=${deviceId}&participantId=${participantId}`)).toEqual({
      status: 404,
      body: { error: 'nothing started yet' },
    });

    const started = await call('POST', '/api/enrollments', { deviceId, participantId });
    const order = { deviceId, enrollmentId: started.body.enrollmentId, description: 'Pedido 1' };
    expect(await call('POST', '/api/payments', { ...order, amountCents: 10.5 })).toEqual({
      status: 400,
      body: { error: 'amountCents: must be a whole number of cents' },
    });
    const refused = await call('POST', '/api/payments', { ...order, amountCents: 1_000 });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/is awaiting_account_holder_validation, not authorized/);
    expect(await call('POST', '/api/enrollments', { deviceId })).toEqual({
      status: 400,
      body: { error: 'participantId: Invalid input: expected string, received undefined' },
    });
  });
});
