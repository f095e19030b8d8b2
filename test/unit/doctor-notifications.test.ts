import { merchantSecret } from '../helpers/merchant-notifications.js';
import { loadConfig } from '../../src/config.js';
import { notificationChecks } from '../../src/doctor/notification-checks.js';
import { freePort } from '../helpers/cli.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('bankflow doctor on the merchant notification endpoints', () => {
  let merchant: WebhookReceiver;

  beforeAll(async () => {
    merchant = await startWebhookReceiver(() => 405);
  });
  afterAll(() => merchant?.close());

  it('passes an endpoint that answers, whatever its status, and fails one nobody listens on, never printing the secret', async () => {
    const down = `http://127.0.0.1:${await freePort()}/bankflow`;
    const checks = await notificationChecks(
      loadConfig({
        BANKFLOW_ENV: 'development',
        NOTIFY_ENDPOINTS: `${merchant.url},${down}`,
        NOTIFY_SECRET: merchantSecret,
        NOTIFY_SECRET_PREVIOUS: `${merchantSecret}-old`,
      }),
    );
    expect(checks).toEqual([
      {
        name: 'notification secret',
        ok: true,
        detail: 'signed with NOTIFY_SECRET and NOTIFY_SECRET_PREVIOUS',
      },
      { name: 'notification endpoint 1', ok: true, detail: `${merchant.url} answers (HTTP 405 to a HEAD)` },
      {
        name: 'notification endpoint 2',
        ok: false,
        detail: expect.any(String),
        fix: `check that ${down} is up and reachable from this host (NOTIFY_ENDPOINTS entry 2)`,
      },
    ]);
    // Doctor sends no event: the endpoint got a HEAD with no body.
    expect(merchant.received.map((request) => [request.method, request.raw.length])).toEqual([['HEAD', 0]]);
    expect(JSON.stringify(checks)).not.toContain(merchantSecret);
  });

  it('says nothing is sent when no endpoint is configured', async () => {
    expect(await notificationChecks(loadConfig({ BANKFLOW_ENV: 'development' }))).toEqual([
      {
        name: 'merchant notifications',
        ok: true,
        detail: 'NOTIFY_ENDPOINTS is unset: no notification is sent',
      },
    ]);
  });
});
