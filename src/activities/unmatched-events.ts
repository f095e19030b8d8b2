import type { Client } from '@temporalio/client';
import { visibilityLiteral } from '../temporal/visibility.js';
import { searchAttributes } from '../workflows/search-attributes.js';
import { memoKeys } from '../workflows/shared/published-memo.js';
import { resolveUnmatchedWebhookSignal, unmatchedWebhookQuery } from '../workflows/unmatched-webhook.js';
import type { ReceivedWebhook } from '../workflows/webhook-events.js';

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
      const kept: { workflowId: string; running: boolean; event: unknown }[] = [];
      for await (const workflow of temporal.workflow.list({ query })) {
        kept.push({
          workflowId: workflow.workflowId,
          running: workflow.status.name === 'RUNNING',
          event: workflow.memo?.[memoKeys.event],
        });
      }
      // The receiver keeps the event in the memo; one kept before it did is read with a query.
      const events = await Promise.all(
        kept.map(async ({ workflowId, event }) =>
          event === undefined
            ? temporal.workflow.getHandle(workflowId).query(unmatchedWebhookQuery)
            : (event as ReceivedWebhook),
        ),
      );
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
      return events;
    },
  };
}
