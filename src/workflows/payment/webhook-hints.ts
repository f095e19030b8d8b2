import type { BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import { webhookCategories } from '../../bank/webhook-categories.js';
import { HintLedger } from '../shared/hint-ledger.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import type { PaymentJourney } from './definitions.js';
import { isFinal, note } from './journey.js';
import { changesCourse, movesForward } from './status.js';

/** What a webhook asks of the workflow: to read the bank's record now, or nothing. */
export type WebhookEffect = 'ask-bank' | 'nothing';

/**
 * The webhooks that asked the payment to read the bank, kept across its waits (hint-ledger.ts): one is pending
 * while the bank's record, as the journey holds it, is behind the status it names (a Pix cash-in names the
 * settlement it evidences).
 */
export function paymentHints(journey: PaymentJourney): HintLedger<ReceivedWebhook> {
  const named = (event: ReceivedWebhook): BiometricPaymentStatus =>
    event.resource?.kind === 'payment' ? event.resource.data.status : 'settled';
  return new HintLedger((event) => movesForward(journey.payment?.status, named(event)));
}

/**
 * Takes in a webhook as a hint. A payment event that would move this payment on sends the workflow to the bank's
 * GET when it would change what the workflow does next (a step within the wait for consent is noted and confirmed
 * by the next read); an event naming another payment, a stale one, or one
 * without a payment is noted and changes nothing. A Pix cash-in is evidence of the settlement once the bank's own
 * record shows the same end-to-end id.
 */
export function webhookHeard(
  journey: PaymentJourney,
  event: ReceivedWebhook,
  at: string,
): WebhookEffect {
  const { envelope, resource } = event;
  const paymentId = journey.payment?.id;
  if (envelope.category === webhookCategories.collectingDocument) {
    if (resource?.kind !== 'cash-in' || resource.data.status !== 'settled') return 'nothing';
    const endToEndId = resource.data.end_to_end_id;
    if (journey.cashIns.includes(endToEndId)) return 'nothing';
    journey.cashIns.push(endToEndId);
    note(journey, {
      source: 'cash-in webhook',
      status: 'settled',
      at,
      detail: `Pix cash-in ${resource.data.id} for ${endToEndId}`,
    });
    return isFinal(journey) ? 'nothing' : 'ask-bank';
  }
  if (resource?.kind !== 'payment') {
    note(journey, {
      source: 'webhook',
      status: envelope.type,
      at,
      detail: 'ignored: the event data is not a payment',
    });
    return 'nothing';
  }
  const hinted = resource.data;
  if (hinted.id !== paymentId) {
    note(journey, {
      source: 'webhook',
      status: hinted.status,
      at,
      detail: `ignored: it names payment ${hinted.id}, not ${paymentId ?? 'this one (not created yet)'}`,
    });
    return 'nothing';
  }
  const current = journey.payment?.status;
  if (!movesForward(current, hinted.status)) return 'nothing';
  if (!changesCourse(current, hinted.status)) {
    note(journey, {
      source: 'webhook',
      status: hinted.status,
      at,
      detail: "a hint of a step the workflow waits through alike: the bank's next read confirms it",
    });
    return 'nothing';
  }
  note(journey, {
    source: 'webhook',
    status: hinted.status,
    at,
    detail: "a hint: the workflow asks the bank's GET before taking it",
  });
  return 'ask-bank';
}
