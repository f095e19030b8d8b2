import { z } from 'zod';
import { webhookCategories } from '../bank/schemas/webhook.js';
import { enrollmentWebhookSignal } from '../contract/enrollment-messages.js';
import { workflowIds } from '../contract/ids.js';
import { paymentWebhookSignal } from '../contract/payment-messages.js';
import { recurrenceWebhookSignal } from '../contract/recurrence-messages.js';
import { searchAttributes } from '../contract/search-attributes.js';
import { createRouter, type VisibilityLookup, type WebhookRoute } from './router.js';
import { cashInKeys } from './unmatched-keys.js';

const text = z.string().min(1);
const enrollmentKeys = z.looseObject({ device_id: text, participant_id: text });
const paymentKeys = z.looseObject({ external_id: text });
const attemptKeys = z.looseObject({ external_id: text });
const attemptRecurrence = z.looseObject({ recurrence_id: text });

async function byAttribute(
  lookup: VisibilityLookup,
  attribute: string,
  value: string,
  signal: WebhookRoute['signal'],
): Promise<WebhookRoute | undefined> {
  const workflowId = await lookup(attribute, value);
  return workflowId ? { workflowId, signal } : undefined;
}

/** Every webhook category bankflow's workflows consume, with the rule that finds the owning workflow. */
export const bankflowRouter = createRouter({
  [webhookCategories.enrollment]: async (envelope, lookup) => {
    const keys = enrollmentKeys.safeParse(envelope.data);
    if (keys.success) {
      return {
        workflowId: workflowIds.enrollment(keys.data.device_id, keys.data.participant_id),
        signal: enrollmentWebhookSignal,
      };
    }
    return byAttribute(lookup, searchAttributes.enrollmentId.name, envelope.ref_id, enrollmentWebhookSignal);
  },
  [webhookCategories.initiationDocument]: async (envelope, lookup) => {
    const keys = paymentKeys.safeParse(envelope.data);
    if (keys.success)
      return { workflowId: workflowIds.payment(keys.data.external_id), signal: paymentWebhookSignal };
    return byAttribute(lookup, searchAttributes.paymentId.name, envelope.ref_id, paymentWebhookSignal);
  },
  [webhookCategories.collectingDocument]: async (envelope, lookup) => {
    const keys = cashInKeys.safeParse(envelope.data);
    if (!keys.success) return undefined;
    return byAttribute(
      lookup,
      searchAttributes.endToEndId.name,
      keys.data.end_to_end_id,
      paymentWebhookSignal,
    );
  },
  // An attempt carries its recurrence's external_id, the key of `recurrence:<external_id>`.
  [webhookCategories.recurrenceCollectionAttempt]: async (envelope, lookup) => {
    const keys = attemptKeys.safeParse(envelope.data);
    if (keys.success) {
      return { workflowId: workflowIds.recurrence(keys.data.external_id), signal: recurrenceWebhookSignal };
    }
    const recurrence = attemptRecurrence.safeParse(envelope.data);
    if (!recurrence.success) return undefined;
    return byAttribute(
      lookup,
      searchAttributes.recurrenceId.name,
      recurrence.data.recurrence_id,
      recurrenceWebhookSignal,
    );
  },
});
