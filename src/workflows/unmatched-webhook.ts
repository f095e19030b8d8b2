import { msToNumber } from '@temporalio/common/lib/time.js';
import { upsertSearchAttributes } from '@temporalio/workflow';
import { searchAttributes } from '../contract/temporal.js';
import {
  unmatchedWebhookRetention,
  unmatchedWebhookStatuses,
  type UnmatchedWebhookCarry,
  type UnmatchedWebhookResult,
} from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';
import { waitOnCurrentVersion, watchForNewVersion } from './shared/journey-run.js';
import { acceptResolution } from './shared/unmatched-resolution.js';

/**
 * A bank event no workflow claimed. It is kept as a running workflow (one per event, id from its dedupe key)
 * so support staff find it in the UI (BankflowKind = webhook-unmatched) and can resolve it with a note.
 * Callers read the event from the memo (`memoKeys.event`), which the receiver sets when it starts the
 * workflow. A new version of bankflow takes the event over by continue-as-new (`carried`), its retention
 * unchanged.
 */
export async function unmatchedWebhookWorkflow(
  event: ReceivedWebhook,
  carried?: UnmatchedWebhookCarry,
): Promise<UnmatchedWebhookResult> {
  const newVersion = watchForNewVersion();
  const resolution = acceptResolution(carried?.resolution);
  const retainedUntil = carried?.retainedUntil ?? Date.now() + msToNumber(unmatchedWebhookRetention);
  const resolved = await waitOnCurrentVersion<typeof unmatchedWebhookWorkflow>(
    () => resolution() !== undefined,
    retainedUntil,
    newVersion,
    () => [event, { retainedUntil, resolution: resolution() }],
  );
  upsertSearchAttributes([
    {
      key: searchAttributes.status,
      value: unmatchedWebhookStatuses[resolved ? 'resolved' : 'expired'],
    },
  ]);
  return { event, resolution: resolution() ?? 'expired' };
}
