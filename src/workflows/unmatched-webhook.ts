import {
  condition,
  defineQuery,
  defineSignal,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { searchAttributes } from './search-attributes.js';
import type { ReceivedWebhook } from './webhook-events.js';

export interface UnmatchedWebhookResolution {
  by: string;
  note: string;
}

export const resolveUnmatchedWebhookSignal =
  defineSignal<[UnmatchedWebhookResolution]>('resolveUnmatchedWebhook');
/** The kept event; callers read it from the memo (`memoKeys.event`), events kept before it was set with this. */
export const unmatchedWebhookQuery = defineQuery<ReceivedWebhook>('unmatchedWebhook');

/** How long an unclaimed event stays open for someone to look at before the workflow closes on its own. */
export const unmatchedWebhookRetention = '30 days';

/**
 * A bank event no workflow claimed. It is kept as a running workflow (one per event, id from its dedupe key) so
 * support staff find it in the UI (BankflowKind = webhook-unmatched) and can resolve it with a note.
 */
export async function unmatchedWebhookWorkflow(event: ReceivedWebhook): Promise<{
  event: ReceivedWebhook;
  resolution: UnmatchedWebhookResolution | 'expired';
}> {
  let resolution: UnmatchedWebhookResolution | undefined;
  setHandler(unmatchedWebhookQuery, () => event);
  setHandler(resolveUnmatchedWebhookSignal, (given) => {
    resolution = given;
  });
  const resolved = await condition(() => resolution !== undefined, unmatchedWebhookRetention);
  upsertSearchAttributes([{ key: searchAttributes.status, value: resolved ? 'resolved' : 'expired' }]);
  return { event, resolution: resolution ?? 'expired' };
}
