import type { Client } from '@temporalio/client';
import { visibilityLiteral } from '../temporal/visibility.js';
import { searchAttributes } from '../contract/search-attributes.js';
import { listKeptEvents } from '../webhooks/kept-events.js';
import { resolveUnmatchedWebhookSignal } from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/** What workflows take back from the receiver's unmatched-event store. */
export function createUnmatchedEventActivities(temporal: Client) {
  return {
    /**
     * The Pix cash-in events kept as unmatched for `endToEndId`, each then resolved as claimed by `claimedBy`. Events
     * already resolved are returned too, so a retry after a partial claim loses none; the workflow dedupes them.
     */
    async claimUnmatchedCashIns(endToEndId: string, claimedBy: string): Promise<ReceivedWebhook[]> {
      if (endToEndId.includes('\u0000')) return [];
      const query = [
        `${searchAttributes.kind.name} = 'webhook-unmatched'`,
        `${searchAttributes.endToEndId.name} = ${visibilityLiteral(endToEndId)}`,
      ].join(' AND ');
      const kept = await listKeptEvents(temporal, query);
      await Promise.all(
        kept
          .filter(({ running }) => running)
          .map(({ workflowId }) =>
            temporal.workflow.getHandle(workflowId).signal(resolveUnmatchedWebhookSignal, {
              by: claimedBy,
              note: `the Pix cash-in for ${endToEndId} arrived before its payment was searchable; claimed by it`,
            }),
          ),
      );
      return kept.map(({ event }) => event);
    },
  };
}
