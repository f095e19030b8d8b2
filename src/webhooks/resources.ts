import type { z } from 'zod';
import { biometricPaymentSchema } from '../bank/schemas/biometric-payment.js';
import { collectingDocumentSchema } from '../bank/schemas/collecting-document.js';
import { webhookCollectionAttemptSchema } from '../bank/schemas/collection-attempt.js';
import { enrollmentSchema } from '../bank/schemas/enrollment.js';
import { webhookCategories, type WebhookEnvelope } from '../bank/schemas/webhook.js';
import { webhookEventKey, type ReceivedWebhook, type WebhookResource } from '../contract/webhook-events.js';

const resourceSchemas = new Map<string, { kind: WebhookResource['kind']; schema: z.ZodType }>([
  [webhookCategories.enrollment, { kind: 'enrollment', schema: enrollmentSchema }],
  [webhookCategories.initiationDocument, { kind: 'payment', schema: biometricPaymentSchema }],
  [webhookCategories.collectingDocument, { kind: 'cash-in', schema: collectingDocumentSchema }],
  [
    webhookCategories.recurrenceCollectionAttempt,
    { kind: 'collection-attempt', schema: webhookCollectionAttemptSchema },
  ],
]);

/** The resource the envelope's `data` holds, when it is the one its category announces. */
export function resourceOf(envelope: WebhookEnvelope): WebhookResource | undefined {
  const expected = resourceSchemas.get(envelope.category);
  const parsed = expected?.schema.safeParse(envelope.data);
  return expected && parsed?.success
    ? ({ kind: expected.kind, data: parsed.data } as WebhookResource)
    : undefined;
}

/** The event a workflow receives for a bank envelope that arrived now. */
export function receivedWebhook(envelope: WebhookEnvelope): ReceivedWebhook {
  const resource = resourceOf(envelope);
  return {
    key: webhookEventKey(envelope),
    envelope,
    receivedAt: new Date().toISOString(),
    ...(resource ? { resource } : {}),
  };
}
