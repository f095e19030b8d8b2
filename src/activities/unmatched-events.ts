import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { claimCashInsSignal, type CashInHolderWorkflow } from '../contract/cash-in-holder.js';
import { workflowIds } from '../contract/ids.js';
import { signalCashInHolder } from '../webhooks/cash-in-holders.js';
import { isPlausibleEndToEndId } from '../webhooks/unmatched-keys.js';
import { visibilityLiteral } from '../temporal/visibility.js';
import { searchAttributes } from '../contract/search-attributes.js';
import { listKeptEvents } from '../temporal/kept-events.js';
import { resolveUnmatchedWebhookSignal } from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/**
 * What workflows take back from the receiver's unmatched-event store; `taskQueue` is the workflows' (these
 * activities run on the internal queue beside it).
 */
export function createUnmatchedEventActivities(temporal: Client, taskQueue: string) {
  return {
    /**
     * Claims the holder of `endToEndId`'s Pix cash-ins for `claimedBy` by id, starting it if no cash-in came yet:
     * the holder signals `claimedBy` every event it holds and every later one. Answers the events of a holder that
     * has already closed (resolved by support, or expired), which nothing will signal; none otherwise.
     */
    async claimCashIns(endToEndId: string, claimedBy: string): Promise<ReceivedWebhook[]> {
      // The receiver holds no cash-in under an id it could not be (a workflow id and a search attribute name it).
      if (!isPlausibleEndToEndId(endToEndId)) return [];
      try {
        await signalCashInHolder(temporal, taskQueue, endToEndId, claimCashInsSignal, { claimedBy });
        return [];
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        const closed = await temporal.workflow
          .getHandle<CashInHolderWorkflow>(workflowIds.cashIn(endToEndId))
          .result();
        return closed.events;
      }
    },
    /**
     * Runs started before payments claimed cash-ins by id (patch `cash-in-holder`) still call this. The Pix cash-in
     * events kept as unmatched for `endToEndId`, each then resolved as claimed by `claimedBy`. Events
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
