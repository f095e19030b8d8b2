import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { claimCashInsSignal, type CashInHolderWorkflow } from '../contract/cash-in-holder.js';
import { workflowIds } from '../contract/ids.js';
import { signalCashInHolder } from '../webhooks/cash-in-holders.js';
import { isPlausibleEndToEndId } from '../webhooks/unmatched-keys.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/**
 * A payment's claim on the Pix cash-ins the receiver holds for its end-to-end id; `taskQueue` is the
 * workflows' (this activity runs on the internal queue beside it, and a holder it starts runs on the
 * workflows').
 */
export function createCashInClaimActivities(temporal: Client, taskQueue: string) {
  return {
    /**
     * Claims the holder of `endToEndId`'s Pix cash-ins for `claimedBy` by id, starting it if no cash-in came
     * yet: the holder signals `claimedBy` every event it holds and every later one. Answers the events of a
     * holder that has already closed (resolved by support, or expired), which nothing will signal; none
     * otherwise.
     */
    async claimCashIns(endToEndId: string, claimedBy: string): Promise<ReceivedWebhook[]> {
      // The receiver holds no cash-in under an id it could not be (a workflow id and a search attribute name
      // it).
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
  };
}
