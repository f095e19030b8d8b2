import type { BiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { Enrollment } from '../../src/bank/schemas/enrollment.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';

/** A webhook as the receiver hands it to a workflow, carrying `data` as the bank's event did. */
function received(
  category: string,
  type: string,
  data: { id: string; updated_at?: string },
  resource: ReceivedWebhook['resource'],
): ReceivedWebhook {
  const envelope = {
    category,
    type,
    ref_id: data.id,
    timestamp: data.updated_at ?? '2030-01-01T12:00:00.000Z',
    data,
  };
  return { key: webhookEventKey(envelope), envelope, receivedAt: envelope.timestamp, resource };
}

export const paymentWebhook = (data: BiometricPayment) =>
  received(webhookCategories.initiationDocument, data.status, data, { kind: 'payment', data });

export const enrollmentWebhook = (data: Enrollment) =>
  received(webhookCategories.enrollment, data.status, data, { kind: 'enrollment', data });

/** The Pix cash-in event for a settled payment's end-to-end id. */
export function cashInWebhook(payment: BiometricPayment): ReceivedWebhook {
  const data = {
    id: payment.id.replace(/^0/, 'c'),
    end_to_end_id: payment.end_to_end_id ?? '',
    status: 'settled',
    amount: payment.amount,
    transaction_date: payment.transaction_date,
    updated_at: payment.updated_at,
  };
  return received(webhookCategories.collectingDocument, 'settled', data, { kind: 'cash-in', data });
}
