import type { BiometricPayment, BiometricPaymentStatus } from '../../src/bank/schemas/biometric-payment.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import { type PaymentInput, type PaymentJourney, paymentTimings } from '../../src/contract/payment.js';
import {
  awaitingCustomer,
  adoptRecord,
  cashInHeard,
  consentRefusal,
  followPlan,
  isFinal,
  conclude,
  startJourney,
  webhookHeard,
} from '../../src/workflows/payment/journey.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';

const paymentId = '0b0c1d2e-3f40-4152-8637-48596a7b8c9d';
const otherPaymentId = '1c1d2e3f-4051-4263-9748-596a7b8c9dae';
const at = '2030-01-01T12:00:00.000Z';
const minute = 60_000;

const input: PaymentInput = {
  externalId: 'pix-1',
  enrollmentId: '2d2e3f40-5162-4374-a859-6a7b8c9daebf',
  deviceId: '3e3f4051-6273-4485-b96a-7b8c9daebfc0',
  amountCents: 1_050,
  description: 'order 1',
  entityId: '4f405162-7384-4596-ca7b-8c9daebfc0d1',
  virtualAccountId: '50516273-8495-46a7-db8c-9daebfc0d1e2',
};

function record(status: BiometricPaymentStatus, changes: Partial<BiometricPayment> = {}): BiometricPayment {
  return {
    id: paymentId,
    amount: { amount: 1_050, currency: 'BRL' },
    description: 'order 1',
    external_id: 'pix-1',
    end_to_end_id: null,
    status,
    transaction_date: null,
    virtual_account_id: input.virtualAccountId,
    inserted_at: at,
    updated_at: at,
    ...changes,
  } as BiometricPayment;
}

function paymentWebhook(data: BiometricPayment): ReceivedWebhook {
  const envelope = {
    category: webhookCategories.initiationDocument,
    type: data.status,
    ref_id: data.id,
    timestamp: data.updated_at,
    data,
  };
  return { key: webhookEventKey(envelope), envelope, receivedAt: at, resource: { kind: 'payment', data } };
}

function journeyAt(status: BiometricPaymentStatus): PaymentJourney {
  const journey = startJourney(input);
  adoptRecord(journey, record(status), 'create', at);
  journey.state.consentDeadline = new Date(Date.parse(at) + 5 * minute).toISOString();
  return journey;
}

describe('payment journey machine', () => {
  it('never adopts a webhook: a settled event while the bank shows awaiting_consent only asks the bank', () => {
    const journey = journeyAt('awaiting_consent');
    const settled = record('settled', {
      end_to_end_id: 'E00000000203001011200abcdefghijk',
      transaction_date: '2030-01-01',
    });
    expect(webhookHeard(journey, paymentWebhook(settled), at)).toBe(true);
    expect(journey.payment?.status).toBe('awaiting_consent');
    expect(journey.state).toMatchObject({
      phase: 'awaiting_consent',
      endToEndId: null,
      transactionDate: null,
    });
    expect(isFinal(journey)).toBe(false);
    expect(awaitingCustomer(journey)).toBe(true);
  });

  it('notes a step within the wait for consent without asking the bank; a change of course asks it', () => {
    const created = journeyAt('created');
    expect(webhookHeard(created, paymentWebhook(record('awaiting_consent')), at)).toBe(false);
    expect(created.payment?.status).toBe('created');
    expect(created.state.evidence.at(-1)).toMatchObject({ source: 'webhook', status: 'awaiting_consent' });
    expect(created.state.evidence.at(-1)?.detail).toMatch("the bank's next read confirms it");

    const awaitingPayment = paymentWebhook(record('awaiting_payment'));
    expect(webhookHeard(journeyAt('created'), awaitingPayment, at)).toBe(true);
    const settled = paymentWebhook(record('settled', { end_to_end_id: 'E1' }));
    expect(webhookHeard(journeyAt('awaiting_payment'), settled, at)).toBe(true);
  });

  it('ignores a webhook naming another payment, noting it, and asks nothing of the bank', () => {
    const journey = journeyAt('awaiting_consent');
    expect(webhookHeard(journey, paymentWebhook(record('settled', { id: otherPaymentId })), at)).toBe(false);
    expect(journey.payment?.id).toBe(paymentId);
    expect(journey.state.evidence.at(-1)?.detail).toMatch(`names payment ${otherPaymentId}`);
  });

  it('takes the bank record forward only, and keeps fields the bank newly fills for the same status', () => {
    const journey = journeyAt('awaiting_consent');
    expect(adoptRecord(journey, record('awaiting_payment', { end_to_end_id: 'E1' }), 'authorize', at)).toBe(
      true,
    );
    expect(journey.authorizedAtBank).toBe(true);
    expect(adoptRecord(journey, record('awaiting_consent'), 'poll', at)).toBe(false);
    expect(adoptRecord(journey, record('settled', { end_to_end_id: 'E1' }), 'poll', at)).toBe(true);
    expect(
      adoptRecord(
        journey,
        record('settled', { end_to_end_id: 'E1', transaction_date: '2030-01-01' }),
        'poll',
        at,
      ),
    ).toBe(true);
    expect(journey.state).toMatchObject({
      phase: 'settled',
      endToEndId: 'E1',
      transactionDate: '2030-01-01',
    });
    expect(adoptRecord(journey, record('failed'), 'poll', at)).toBe(false);
    expect(adoptRecord(journey, record('settled', { id: otherPaymentId }), 'poll', at)).toBe(false);
  });

  it('results: a final outcome is the final status of the bank record; otherwise expired with the last status', () => {
    const settled = journeyAt('awaiting_consent');
    adoptRecord(settled, record('awaiting_payment'), 'authorize', at);
    adoptRecord(
      settled,
      record('settled', { end_to_end_id: 'E1', transaction_date: '2030-01-01' }),
      'poll',
      at,
    );
    expect(conclude(settled, Date.parse(at))).toMatchObject({
      outcome: 'settled',
      status: 'settled',
      endToEndId: 'E1',
      reason: 'the bank reports the payment settled',
    });

    const waiting = journeyAt('awaiting_consent');
    webhookHeard(waiting, paymentWebhook(record('settled', { end_to_end_id: 'E9' })), at);
    expect(conclude(waiting, Date.parse(at) + 70 * minute)).toMatchObject({
      outcome: 'expired',
      status: 'awaiting_consent',
      endToEndId: null,
    });

    const rejected = journeyAt('awaiting_consent');
    adoptRecord(rejected, record('rejected'), 'poll', at);
    expect(conclude(rejected, Date.parse(at) + 6 * minute).reason).toBe(
      'the bank reports the payment rejected before the customer authorized it (the consent window closed)',
    );
  });

  it('hears a Pix cash-in only for the end-to-end id the bank record shows', () => {
    const journey = journeyAt('awaiting_consent');
    adoptRecord(journey, record('settled', { end_to_end_id: 'E1' }), 'poll', at);
    const cashIn = (endToEndId: string): ReceivedWebhook => {
      const data = {
        id: otherPaymentId,
        end_to_end_id: endToEndId,
        status: 'settled',
        amount: { amount: 1_050, currency: 'BRL' },
        transaction_date: '2030-01-01',
      };
      const envelope = {
        category: webhookCategories.collectingDocument,
        type: 'settled',
        ref_id: otherPaymentId,
        timestamp: at,
        data,
      };
      return {
        key: webhookEventKey(envelope),
        envelope,
        receivedAt: at,
        resource: { kind: 'cash-in', data },
      } satisfies ReceivedWebhook;
    };
    webhookHeard(journey, cashIn('E2'), at);
    expect(cashInHeard(journey)).toBe(false);
    webhookHeard(journey, cashIn('E1'), at);
    expect(cashInHeard(journey)).toBe(true);
  });

  it('plans the follow: a short frequent one after the consent window, days in processing, sparse after the first hour', () => {
    const consent = journeyAt('awaiting_consent');
    const deadline = Date.parse(consent.state.consentDeadline ?? '');
    expect(followPlan(consent, deadline)).toEqual({
      until: deadline + paymentTimings.afterConsentWindowMs,
      frequent: true,
      awaitingCustomer: true,
    });
    expect(followPlan(consent, deadline + paymentTimings.afterConsentWindowMs)).toBeUndefined();

    const processing = journeyAt('awaiting_payment');
    const start = Date.parse(at);
    expect(followPlan(processing, start)).toMatchObject({
      until: start + paymentTimings.frequentPollingMs,
      frequent: true,
    });
    expect(followPlan(processing, start + 2 * paymentTimings.frequentPollingMs)).toMatchObject({
      until: start + paymentTimings.processingMs,
      frequent: false,
    });
    expect(followPlan(processing, start + paymentTimings.processingMs)).toBeUndefined();
  });

  it('refuses consent requests once the bank moved on or the window closed', () => {
    const journey = journeyAt('awaiting_consent');
    expect(consentRefusal(journey, 'an authorization', Date.parse(at))).toBeUndefined();
    expect(consentRefusal(journey, 'an authorization', Date.parse(at) + 5 * minute)).toMatch(
      /consent window closed/,
    );
    adoptRecord(journey, record('awaiting_payment'), 'authorize', at);
    expect(consentRefusal(journey, 'an authorization', Date.parse(at))).toMatch(/it is awaiting_payment/);
  });

  it('keeps a status it does not know as sent, shown as unknown, and goes on from the last one it knows', () => {
    const journey = journeyAt('awaiting_consent');
    const drifted = record('awaiting_consent', { status: 'under_review' } as Partial<BiometricPayment>);
    expect(adoptRecord(journey, drifted, 'poll', at)).toBe(true);
    expect(journey.state).toMatchObject({ phase: 'unknown', unknownStatus: 'under_review' });
    expect(journey.payment?.status).toBe('awaiting_consent');
    expect(awaitingCustomer(journey)).toBe(true);
    expect(isFinal(journey)).toBe(false);
    expect(journey.state.evidence.at(-1)).toMatchObject({ source: 'poll', status: 'under_review' });
    // The same unknown status again changes nothing; a webhook naming it asks the bank only if it is news.
    expect(adoptRecord(journey, drifted, 'poll', at)).toBe(false);
    expect(webhookHeard(journey, paymentWebhook(drifted), at)).toBe(false);
    // The bank's next known status is taken, even the one it showed before the drift.
    expect(adoptRecord(journey, record('awaiting_consent'), 'poll', at)).toBe(true);
    expect(journey.state.phase).toBe('awaiting_consent');
    expect(journey.state.unknownStatus).toBeUndefined();
    expect(adoptRecord(journey, record('settled'), 'poll', at)).toBe(true);
    expect(conclude(journey, Date.parse(at))).toMatchObject({ outcome: 'settled' });
  });
});
