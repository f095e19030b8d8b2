import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { BankClient } from '../../src/bank/client.js';
import { BankNotFoundError } from '../../src/bank/errors.js';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { verifyWebhookSignature } from '../../src/bank/webhook-signature.js';
import { webhookHeaders } from '../../src/bank/schemas/webhook.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import type { FaultInjector, FaultSettings } from '../../devkit/sandbox/faults.js';
import type { WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import { eventually } from '../helpers/journey.js';
import { sandboxControl } from '../helpers/sandbox-control.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const credentials = { clientId: 'test-client', clientSecret: 'test-secret' };
const logger = createLogger('silent');
const lagMs = 600;
const onAnyPort = { host: '127.0.0.1', port: 0, credentials, logger };

/**
 * The faults that make "the bank's GET is the truth" testable: reads lagging the webhooks (`get_lag_ms`), and
 * webhooks naming another resource (`webhook_foreign_id_rate`), both through the client a worker uses.
 */
describe('faults that make a webhook say more than the bank confirms', () => {
  let sandbox: RunningSandbox;
  let bank: BankClient;
  let receiver: WebhookReceiver;
  const control = () => sandboxControl(sandbox.url);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sandbox = await startSandbox({
      ...onAnyPort,
      seed: 42,
      webhookUrl: receiver.url,
      biometrics: { settlementDelayMs: null },
    });
    bank = new BankClient({ ...credentials, baseUrl: sandbox.url, timeoutMs: 5_000 }, logger);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await receiver?.close();
  });
  beforeEach(async () => {
    expect((await control().post('/sandbox/reset', {})).status).toBe(200);
  });

  async function configure(settings: Partial<FaultSettings>): Promise<void> {
    expect((await control().put('/sandbox/faults', settings)).status).toBe(200);
  }

  async function events(refId: string): Promise<WebhookEventRecord[]> {
    const response = await control().get<{ data: WebhookEventRecord[] }>(
      `/sandbox/webhooks/events?ref_id=${refId}`,
    );
    return response.body.data;
  }

  async function newAttempt(recurrenceId: string): Promise<CollectionAttempt> {
    const produced = await control().post<{ data: CollectionAttempt[] }>(
      `/sandbox/recurrences/${recurrenceId}/attempts`,
      { attempts: [{ status: 'created' }] },
    );
    expect(produced.status).toBe(201);
    return produced.body.data[0]!;
  }

  async function newRecurrence() {
    return bank.generateRecurrence(
      exampleRecurrenceRequest({
        externalId: `lag-${randomUUID().slice(0, 8)}`,
        virtualAccountId: sandbox.state.world.virtualAccountIds[0]!,
      }),
    );
  }

  it('answers collection attempts as they were get_lag_ms ago, while the webhooks go out at once', async () => {
    await configure({ get_lag_ms: lagMs });
    const recurrence = await newRecurrence();
    const attempt = await newAttempt(recurrence.id);
    const listed = async () =>
      (await bank.listCollectionAttempts({ recurrence_id: recurrence.id })).data.map((item) => item.status);

    // Too new for the bank's reads: not found by id, not listed.
    await expect(bank.getCollectionAttempt(attempt.id)).rejects.toBeInstanceOf(BankNotFoundError);
    expect(await listed()).toEqual([]);
    await sleep(lagMs);
    expect((await bank.getCollectionAttempt(attempt.id)).status).toBe('created');

    const moved = await control().post(`/sandbox/collection-attempts/${attempt.id}/status`, {
      status: 'settled',
    });
    expect(moved.status).toBe(200);
    expect((await events(attempt.id)).map((event) => event.envelope.type)).toEqual(['created', 'settled']);
    const stale = await bank.getCollectionAttempt(attempt.id);
    expect(stale).toMatchObject({ status: 'created', end_to_end_id: null, transaction_date: null });
    expect(await listed()).toEqual(['created']);

    await sleep(lagMs);
    const confirmed = await bank.getCollectionAttempt(attempt.id);
    expect(confirmed.status).toBe('settled');
    expect(confirmed.end_to_end_id).toEqual(expect.any(String));
    expect(await listed()).toEqual(['settled']);

    // Without the lag every read is current again.
    await configure({ get_lag_ms: 0 });
    const fresh = await newAttempt(recurrence.id);
    expect((await bank.getCollectionAttempt(fresh.id)).status).toBe('created');
  });

  it('answers a boleto cancel with the boleto as the lagging reads show it, though it is cancelled', async () => {
    await configure({ get_lag_ms: lagMs });
    const [boletoId, boleto] = [...sandbox.state.boletos.entries()].find(
      ([, candidate]) => candidate.status !== 'cancelled',
    )!;
    const before = boleto.status;
    const first = await bank.cancelBoleto(boletoId);
    expect(first.status).toBe(before);
    expect(sandbox.state.boletos.get(boletoId)?.status).toBe('cancelled');
    await sleep(lagMs);
    expect((await bank.cancelBoleto(boletoId)).status).toBe('cancelled');
  });

  it('lists an enrollment and reads a payment as they were get_lag_ms ago', async () => {
    const participant = sandbox.state.biometrics.participants.find((p) => p.is_enrollment_available)!;
    const device = await bank.findOrCreateDevice({
      fingerprint: randomUUID(),
      counterparty_tax_number: '12345678909',
    });
    await configure({ get_lag_ms: lagMs });
    const enrollment = await bank.createEnrollment({
      device_id: device.id,
      participant_id: participant.id,
      return_to_url: 'https://merchant.example/done',
      external_id: randomUUID(),
    });
    const statuses = async () =>
      (await bank.listEnrollments({ device_id: device.id })).data.map((item) => item.status);
    expect(await statuses()).toEqual([]);
    await sleep(lagMs);
    expect(await statuses()).toEqual(['awaiting_account_holder_validation']);

    await control().post(`/sandbox/biometrics/enrollments/${enrollment.id}/bank-authorization`, {});
    expect((await events(enrollment.id)).map((event) => event.envelope.type)).toEqual([
      'awaiting_enrollment',
    ]);
    expect(await statuses()).toEqual(['awaiting_account_holder_validation']);
    await sleep(lagMs);
    expect(await statuses()).toEqual(['awaiting_enrollment']);

    const authenticator = SoftwareAuthenticator.create();
    const options = await bank.getRegistrationOptions(enrollment.id);
    await bank.registerCredential(enrollment.id, {
      fido_assertion: authenticator.createCredential(options.public_key_encoded, sandbox.url),
    });
    await sleep(lagMs);
    const payment = await bank.createBiometricPayment(enrollment.id, {
      entity_id: sandbox.state.world.entityIds[0]!,
      virtual_account_id: sandbox.state.world.virtualAccountIds[0]!,
      amount: 1_050,
      description: 'Pedido 1234',
      external_id: randomUUID(),
    });
    await expect(bank.getBiometricPayment(enrollment.id, payment.id)).rejects.toBeInstanceOf(
      BankNotFoundError,
    );
    await sleep(lagMs);
    const authorization = await bank.getPaymentAuthorizationOptions(enrollment.id, payment.id);
    expect(authorization.public_key_encoded).toEqual(expect.any(String));
    expect((await bank.getBiometricPayment(enrollment.id, payment.id)).status).toBe('created');
    await sleep(lagMs);
    expect((await bank.getBiometricPayment(enrollment.id, payment.id)).status).toBe('awaiting_consent');
    // The sandbox's own view is never behind.
    const own = await control().get<{ data: { id: string; status: string }[] }>(
      `/sandbox/biometrics/payments?enrollment_id=${enrollment.id}`,
    );
    expect(own.body.data).toEqual([expect.objectContaining({ id: payment.id, status: 'awaiting_consent' })]);
  });

  it('delivers any signed webhook a test chooses, e.g. settled for a payment the bank has not settled', async () => {
    const refId = randomUUID();
    const announced = await control().post<{ data: WebhookEventRecord }>('/sandbox/webhooks/events', {
      category: 'initiation_document',
      type: 'settled',
      ref_id: refId,
      data: { id: refId, status: 'settled' },
    });
    expect(announced.status).toBe(201);
    const delivered = await eventually(
      async () =>
        receiver.received.find((webhook) => webhook.headers[webhookHeaders.id] === announced.body.data.id),
      (webhook) => webhook !== undefined,
    );
    if (!delivered) throw new Error('not delivered');
    expect(JSON.parse(delivered.raw.toString())).toMatchObject({ type: 'settled', ref_id: refId });
    expect(
      verifyWebhookSignature(delivered.raw, String(delivered.headers[webhookHeaders.signature]), [
        sandbox.webhooks.settings.secret,
      ]),
    ).toBe(true);
  });

  it('sends webhook_foreign_id_rate of the webhooks naming another resource of their category, from the seed', async () => {
    const announce = async (refId: string) =>
      (
        await control().post<{ data: WebhookEventRecord }>('/sandbox/webhooks/events', {
          category: 'recurrence_collection_attempt',
          type: 'settled',
          ref_id: refId,
          data: { id: refId, status: 'settled' },
        })
      ).body.data;
    const run = async () => {
      const ids: string[] = Array.from({ length: 200 }, () => randomUUID());
      const records: WebhookEventRecord[] = [];
      for (const id of ids) records.push(await announce(id));
      return { ids, records };
    };

    await configure({ seed: 5, webhook_foreign_id_rate: 0.25 });
    const { ids, records } = await run();
    const swapped = records.filter((record) => record.replaced_ref_id !== null);
    const sigma = Math.sqrt(200 * 0.25 * 0.75);
    expect(Math.abs(swapped.length - 50)).toBeLessThanOrEqual(3 * sigma);
    const injected = await control().get<{ data: { injected: FaultInjector['injected'] } }>(
      '/sandbox/faults',
    );
    expect(injected.body.data.injected.webhooksForeignIds).toBe(swapped.length);
    for (const [index, record] of records.entries()) {
      const { envelope } = record;
      expect(envelope.data.id).toBe(envelope.ref_id);
      if (record.replaced_ref_id === null) {
        expect(envelope.ref_id).toBe(ids[index]);
        continue;
      }
      // The real resource is kept for the audit; the event names one announced before it (or none at all).
      expect(record.replaced_ref_id).toBe(ids[index]);
      expect(envelope.ref_id).not.toBe(ids[index]);
      if (index > 0) expect(ids.slice(0, index)).toContain(envelope.ref_id);
    }

    // The same seed swaps the same events for the same earlier ones.
    await control().post('/sandbox/reset', {});
    await configure({ seed: 5, webhook_foreign_id_rate: 0.25 });
    const again = await run();
    const picks = (result: typeof again) =>
      result.records.map((record) =>
        record.replaced_ref_id === null ? -1 : result.ids.indexOf(record.envelope.ref_id),
      );
    expect(picks(again)).toEqual(picks({ ids, records }));
  });

  it('takes get_lag_ms and the foreign-id rate as start options, which a reset returns to', async () => {
    const started = await startSandbox({
      ...onAnyPort,
      seed: 7,
      faults: { get_lag_ms: 250, webhook_foreign_id_rate: 0.1 },
    });
    try {
      const read = async () =>
        (await sandboxControl(started.url).get<{ data: { settings: FaultSettings } }>('/sandbox/faults')).body
          .data.settings;
      expect(await read()).toMatchObject({ seed: 7, get_lag_ms: 250, webhook_foreign_id_rate: 0.1 });
      await sandboxControl(started.url).put('/sandbox/faults', { get_lag_ms: 0 });
      expect((await read()).get_lag_ms).toBe(0);
      await sandboxControl(started.url).post('/sandbox/reset', {});
      expect(await read()).toMatchObject({ get_lag_ms: 250, webhook_foreign_id_rate: 0.1 });
    } finally {
      await started.stop();
    }
  });
});
