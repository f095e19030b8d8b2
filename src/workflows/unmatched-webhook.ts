import {
  condition,
  defineSignal,
  defineUpdate,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { searchAttributes } from './search-attributes.js';
import type { ReceivedWebhook } from './webhook-events.js';

export interface UnmatchedWebhookResolution {
  by: string;
  note: string;
}

/** What the Temporal UI's signal dialog sends: `resolveUnmatchedWebhook` with `{"by": "...", "note": "..."}`. */
export const resolveUnmatchedWebhookSignal =
  defineSignal<[UnmatchedWebhookResolution]>('resolveUnmatchedWebhook');
/** The same resolution as an update: refused (and not recorded) without a note or once resolved; answers it. */
export const resolveUnmatchedWebhookUpdate = defineUpdate<
  UnmatchedWebhookResolution,
  [UnmatchedWebhookResolution]
>('resolveUnmatchedWebhookWithAnswer');

/** BankflowStatus of an unmatched event: open, resolved with a note (or claimed by its workflow), or left to expire. */
export const unmatchedWebhookStatuses = {
  open: 'unmatched',
  resolved: 'resolved',
  expired: 'expired',
} as const;

/** How long an unclaimed event stays open for someone to look at before the workflow closes on its own. */
export const unmatchedWebhookRetention = '30 days';

/**
 * A bank event no workflow claimed. It is kept as a running workflow (one per event, id from its dedupe key) so
 * support staff find it in the UI (BankflowKind = webhook-unmatched) and can resolve it with a note. Callers read
 * the event from the memo (`memoKeys.event`), which the receiver sets when it starts the workflow.
 */
export async function unmatchedWebhookWorkflow(event: ReceivedWebhook): Promise<{
  event: ReceivedWebhook;
  resolution: UnmatchedWebhookResolution | 'expired';
}> {
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
