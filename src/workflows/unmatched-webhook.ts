import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import { searchAttributes } from '../contract/search-attributes.js';
import {
  unmatchedWebhookRetention,
  unmatchedWebhookStatuses,
  type UnmatchedWebhookResult,
} from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';
import { acceptResolution } from './shared/unmatched-resolution.js';

/**
 * A bank event no workflow claimed. It is kept as a running workflow (one per event, id from its dedupe key) so
 * support staff find it in the UI (BankflowKind = webhook-unmatched) and can resolve it with a note. Callers read
 * the event from the memo (`memoKeys.event`), which the receiver sets when it starts the workflow.
 */
export async function unmatchedWebhookWorkflow(event: ReceivedWebhook): Promise<UnmatchedWebhookResult> {
  const resolution = acceptResolution();
  const resolved = await condition(() => resolution() !== undefined, unmatchedWebhookRetention);
  upsertSearchAttributes([
    {
      key: searchAttributes.status,
      value: unmatchedWebhookStatuses[resolved ? 'resolved' : 'expired'],
    },
  ]);
  return { event, resolution: resolution() ?? 'expired' };
}
