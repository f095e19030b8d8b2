import { z } from 'zod';
import { webhookCategories } from '../bank/schemas/webhook.js';
import {
  enrollmentWebhookSignal,
  paymentWebhookSignal,
  recurrenceWebhookSignal,
} from '../contract/temporal.js';
import { workflowIds } from '../contract/ids.js';
import { createRouter } from './router.js';
import { cashInEndToEndId } from './unmatched-keys.js';

const text = z.string().min(1);
const enrollmentKeys = z.looseObject({ device_id: text, participant_id: text });
const paymentKeys = z.looseObject({ external_id: text });
const attemptKeys = z.looseObject({ external_id: text });

/**
 * Every webhook category bankflow's workflows consume, with the rule that names the owning workflow. The
 * bank's enrollment, payment and attempt webhooks carry the full record, keys included; one without its keys
 * is kept as unmatched (the journey's own reads of the bank are its truth either way).
 */
export const bankflowRouter = createRouter({
  [webhookCategories.enrollment]: (envelope) => {
    const keys = enrollmentKeys.safeParse(envelope.data);
    if (!keys.success) return undefined;
    return {
      workflowId: workflowIds.enrollment(keys.data.device_id, keys.data.participant_id),
      signal: enrollmentWebhookSignal,
    };
  },
  [webhookCategories.initiationDocument]: (envelope) => {
    const keys = paymentKeys.safeParse(envelope.data);
    if (!keys.success) return undefined;
    return { workflowId: workflowIds.payment(keys.data.external_id), signal: paymentWebhookSignal };
  },
  // A cash-in waits for its payment under its end-to-end id: the payment claims it once the bank shows that
  // id.
  [webhookCategories.collectingDocument]: (envelope) => {
    const endToEndId = cashInEndToEndId(envelope);
    return endToEndId === undefined ? undefined : { cashIn: endToEndId };
  },
  // An attempt carries its recurrence's external_id, the key of `recurrence:<external_id>`.
  [webhookCategories.recurrenceCollectionAttempt]: (envelope) => {
    const keys = attemptKeys.safeParse(envelope.data);
    if (!keys.success) return undefined;
    return { workflowId: workflowIds.recurrence(keys.data.external_id), signal: recurrenceWebhookSignal };
  },
});
