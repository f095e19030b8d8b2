import { condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { searchAttributes } from '../contract/search-attributes.js';
import {
  resolveUnmatchedWebhookSignal,
  resolveUnmatchedWebhookUpdate,
  unmatchedWebhookRetention,
  unmatchedWebhookStatuses,
  type UnmatchedWebhookResolution,
  type UnmatchedWebhookResult,
} from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/**
 * A bank event no workflow claimed. It is kept as a running workflow (one per event, id from its dedupe key) so
 * support staff find it in the UI (BankflowKind = webhook-unmatched) and can resolve it with a note. Callers read
 * the event from the memo (`memoKeys.event`), which the receiver sets when it starts the workflow.
 */
export async function unmatchedWebhookWorkflow(event: ReceivedWebhook): Promise<UnmatchedWebhookResult> {
  let resolution: UnmatchedWebhookResolution | undefined;
  setHandler(resolveUnmatchedWebhookSignal, (given) => {
    resolution = given;
  });
  setHandler(
    resolveUnmatchedWebhookUpdate,
    (given) => {
      resolution = given;
      return given;
    },
    {
      validator: (given) => {
        if (resolution !== undefined) {
          throw new Error(`already resolved by ${resolution.by}: ${resolution.note}`);
        }
        // A caller other than the starter may send anything, so the shape is checked, not assumed.
        if (typeof given.note !== 'string' || given.note.trim() === '') {
          throw new Error('note: must say what was done about the event');
        }
        if (typeof given.by !== 'string' || given.by.trim() === '') {
          throw new Error('by: must name who resolves the event');
        }
      },
    },
  );
  const resolved = await condition(() => resolution !== undefined, unmatchedWebhookRetention);
  upsertSearchAttributes([
    {
      key: searchAttributes.status,
      value: unmatchedWebhookStatuses[resolved ? 'resolved' : 'expired'],
    },
  ]);
  return { event, resolution: resolution ?? 'expired' };
}
