import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createCheckout } from '../../devkit/checkout/app.js';
import { httpCall } from '../helpers/http.js';
import { closeRawAgent, rawRequest } from '../helpers/raw-http.js';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { demoOrder } from '../../devkit/checkout/orders.js';
import { bankFor, control, enroll, world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const widgetUrl = 'http://localhost:4999/sandbox/widget';

describe('reference checkout backend over the real stack', () => {
  let stack: TestStack;
  let checkout: FastifyInstance;

  let checkoutUrl: string;

  /** A browser loading the page: the session cookie the backend set, sent back with every API call. */
  const openSession = async () => {
    const page = await httpCall(`${checkoutUrl}/`);
    const cookie = page.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^checkout_session=[\w-]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    return cookie.split(';')[0] ?? '';
  };
  let session = '';

  const call = async (method: 'GET' | 'POST', path: string, payload?: object, cookie = session) => {
    const answer = await httpCall(`${checkoutUrl}${path}`, {
      method,
      headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    });
    return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
  };

  /** A new browser: a session of its own and its device at the bank, made for the session's customer. */
  const newBrowser = async () => {
    session = await openSession();
    const device = await call('POST', '/api/device', { fingerprint: randomUUID(), language: 'pt-BR' });
    expect(device.status).toBe(200);
    return device.body.deviceId as string;
  };

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
    closeRawAgent();
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
    session = await openSession();
    expect(await call('GET', '/api/config')).toEqual({
      status: 200,
      body: { widgetUrl, customer: { name: 'Maria Silva' }, order: demoOrder },
    });
    expect(await call('GET', '/api/config', undefined, '')).toEqual({
      status: 401,
      body: { error: 'no checkout session: load the checkout page first' },
    });
  });

  it('lists the participants for a device, and starts an enrollment returning to the page', async () => {
    const deviceId = await newBrowser();
    const participants = (await call('GET', '/api/participants')).body as unknown as {
      id: string;
      available: boolean;
      enrolled: boolean;
    }[];
    expect(participants).toHaveLength(stack.sandbox.state.biometrics.participants.length);
    const open = participants.find((participant) => participant.available);
    expect(open).toMatchObject({ enrolled: false });

    const started = await call('POST', '/api/enrollments', { participantId: open?.id });
    expect(started.status).toBe(200);
    expect(stack.sandbox.state.biometrics.enrollments.get(String(started.body.enrollmentId))).toMatchObject({
      record: { device_id: deviceId },
    });
    expect(started.body.redirectUrl).toBe(
      `${stack.sandbox.url}/sandbox/bank-authorization/${String(started.body.enrollmentId)}`,
    );
    const entry = stack.sandbox.state.biometrics.enrollments.get(String(started.body.enrollmentId));
    expect(entry?.returnToUrl).toBe(`${checkoutUrl}/?enrolled=${open?.id}`);

    const state = await call('GET', `/api/enrollment?participantId=${open?.id}`);
    expect(state.body).toMatchObject({ phase: 'awaiting_account_holder_validation', reason: null });
  });

  it('answers failures with their reason: bad input, nothing started, an enrollment not yet authorized', async () => {
    await newBrowser();
    const participantId = stack.sandbox.state.biometrics.participants[0]?.id;
    expect(await call('GET', `/api/enrollment?participantId=${participantId}`)).toEqual({
      status: 404,
      body: { error: 'nothing started yet' },
    });

    const started = await call('POST', '/api/enrollments', { participantId });
    const order = { orderId: demoOrder.id, enrollmentId: started.body.enrollmentId };
    expect(await call('POST', '/api/payments', { ...order, orderId: 'order-0' })).toEqual({
      status: 400,
      body: { error: 'orderId: no order order-0 in this shop' },
    });
    const refused = await call('POST', '/api/payments', order);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/is awaiting_account_holder_validation, not authorized/);
    expect(await call('POST', '/api/enrollments', {})).toEqual({
      status: 400,
      body: { error: 'participantId: Invalid input: expected string, received undefined' },
    });
  });

  it('prices on the server: the browser cannot set the amount, the description, the device or the customer', async () => {
    const deviceId = await newBrowser();
    expect(
      await call('POST', '/api/device', {
        fingerprint: randomUUID(),
        counterparty_tax_number: '98765432100',
      }),
    ).toEqual({
      status: 400,
      body: {
        error: 'counterparty_tax_number: must not be sent: the customer comes from the checkout session',
      },
    });
    const participantId = stack.sandbox.state.biometrics.participants.find(
      (participant) => participant.is_enrollment_available && !participant.unavailable,
    )?.id;
    const customer = {
      deviceId,
      participantId: participantId ?? '',
      authenticator: SoftwareAuthenticator.create(),
    };
    const { result } = await enroll(stack, customer);
    const order = { orderId: demoOrder.id, enrollmentId: result.enrollment?.id };

    expect(await call('POST', '/api/payments', { ...order, amountCents: 1 })).toEqual({
      status: 400,
      body: { error: 'amountCents: must not be sent: the price comes from the order' },
    });
    expect((await call('POST', '/api/payments', { ...order, description: 'free' })).status).toBe(400);
    expect((await call('POST', '/api/payments', { ...order, deviceId: randomUUID() })).status).toBe(400);
    expect(await call('POST', '/api/payments', order, '')).toMatchObject({ status: 401 });

    const created = await call('POST', '/api/payments', order);
    expect(created).toMatchObject({ status: 200, body: { amountCents: demoOrder.amountCents } });
    const externalId = String(created.body.externalId);
    const atBank = (await control(stack, 'GET', '/sandbox/biometrics/payments')) as unknown as {
      external_id: string;
      amount: { amount: number };
      remittance_information?: string;
    }[];
    expect(atBank.find((payment) => payment.external_id === externalId)?.amount.amount).toBe(
      demoOrder.amountCents,
    );

    // Another browser's session cannot follow or authorize this payment.
    const stranger = await openSession();
    expect(await call('GET', `/api/payments/${encodeURIComponent(externalId)}`, undefined, stranger)).toEqual(
      {
        status: 403,
        body: { error: `payment ${externalId} was not started by this checkout session` },
      },
    );
  });

  it('refuses device fields the page has no business sending, by name, and passes on only the known ones', async () => {
    session = await openSession();
    const fingerprint = randomUUID();
    const fields = 'fingerprint, os, os_version, language, screen_width, screen_height, timezone_offset';
    for (const [field, value] of [
      ['load_enrollments', true],
      ['account_tenure', '2001-01-01'],
      ['risk_score', 0],
      ['__proto__x', 'x'],
    ] as const) {
      expect(await call('POST', '/api/device', { fingerprint, [field]: value })).toEqual({
        status: 400,
        body: { error: `${field}: is not a device field the page may send (${fields})` },
      });
    }
    const atBank = () =>
      [...stack.sandbox.state.biometrics.devices.values()].filter(
        (entry) => entry.record.fingerprint === fingerprint,
      );
    expect(atBank()).toEqual([]);

    const known = {
      fingerprint,
      os: 'Linux',
      language: 'pt-BR',
      screen_width: 1280,
      timezone_offset: '-03:00',
    };
    const device = await call('POST', '/api/device', known);
    expect(device.status).toBe(200);
    // What reached the bank: the page's known fields and the session's customer, nothing else.
    expect(atBank().map((entry) => entry.record)).toEqual([
      {
        ...known,
        counterparty_tax_number: '12345678909',
        counterparty_name: 'Maria Silva',
        id: device.body.deviceId,
        inserted_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  it('answers only to its own host: a rebound or forged Host header reaches no route', async () => {
    const port = new URL(checkoutUrl).port;
    for (const host of [
      'attacker.example',
      `attacker.example:${port}`,
      `127.0.0.1:${port}`,
      `localhost:${Number(port) + 1}`,
    ]) {
      const page = await rawRequest(`${checkoutUrl}/`, { method: 'GET', headers: [['host', host]] });
      expect({ host, status: page.statusCode, cookie: page.headers['set-cookie'] }).toEqual({
        host,
        status: 421,
        cookie: undefined,
      });
      expect(JSON.parse(page.body)).toEqual({
        error:
          `this checkout answers only to localhost:${port} (CHECKOUT_PUBLIC_URL), not Host ${JSON.stringify(host)}; ` +
          `open http://localhost:${port}, or set CHECKOUT_PUBLIC_URL to the address customers use`,
      });
    }
    const enrollment = await rawRequest(`${checkoutUrl}/api/enrollments`, {
      headers: [
        ['host', 'attacker.example'],
        ['cookie', session],
        ['content-type', 'application/json'],
      ],
      body: Buffer.from(
        JSON.stringify({ participantId: stack.sandbox.state.biometrics.participants[0]?.id }),
      ),
    });
    expect(enrollment.statusCode).toBe(421);
  });

  describe('served at a public https address (CHECKOUT_PUBLIC_URL)', () => {
    const publicUrl = 'https://shop.example/';
    let shop: FastifyInstance;
    let shopUrl: string;
    beforeAll(async () => {
      shop = createCheckout({
        starter: stack,
        bank: { bank: bankFor(stack) },
        merchant: world(stack),
        widgetUrl,
        publicUrl,
        logger: stack.logger,
      });
      shopUrl = await shop.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(() => shop?.close());

    /**
     * What a proxy in front of the checkout passes on: the customer's Host, here the public one unless told.
     */
    const shopCall = async (path: string, init: { cookie?: string; body?: object; host?: string } = {}) => {
      const answer = await rawRequest(`${shopUrl}${path}`, {
        method: init.body ? 'POST' : 'GET',
        headers: [
          ['host', init.host ?? 'shop.example'],
          ...(init.cookie ? [['cookie', init.cookie] as [string, string]] : []),
          ...(init.body ? [['content-type', 'application/json'] as [string, string]] : []),
        ],
        body: init.body ? Buffer.from(JSON.stringify(init.body)) : undefined,
      });
      return { ...answer, json: () => JSON.parse(answer.body) as Record<string, unknown> };
    };

    it('sets a Secure, HttpOnly, SameSite session cookie, and sends the bank back to the public https URL, not the address the request came in on', async () => {
      const page = await shopCall('/');
      expect(page.statusCode).toBe(200);
      const cookie = String(page.headers['set-cookie']);
      expect(cookie).toMatch(/^checkout_session=[\w-]{32}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      const shopSession = cookie.split(';')[0] ?? '';
      // The default port spelled out is the same host.
      expect(
        (await shopCall('/api/config', { cookie: shopSession, host: 'shop.example:443' })).statusCode,
      ).toBe(200);
      expect(
        (await shopCall('/api/config', { cookie: shopSession, host: 'shop.example.attacker.example' }))
          .statusCode,
      ).toBe(421);

      const device = await shopCall('/api/device', {
        cookie: shopSession,
        body: { fingerprint: randomUUID() },
      });
      expect(device.statusCode).toBe(200);
      const participantId = stack.sandbox.state.biometrics.participants.find(
        (participant) => participant.is_enrollment_available && !participant.unavailable,
      )?.id;
      const started = await shopCall('/api/enrollments', { cookie: shopSession, body: { participantId } });
      expect(started.statusCode).toBe(200);
      const entry = stack.sandbox.state.biometrics.enrollments.get(String(started.json().enrollmentId));
      expect(entry?.returnToUrl).toBe(`https://shop.example/?enrolled=${participantId}`);
    });
  });
});
