import { condition, workflowInfo } from '@temporalio/workflow';
import type { ReceivedWebhook } from '../webhook-events.js';
import { now, temporal } from './bank-calls.js';
import type { PaymentJourney } from './definitions.js';
import { cashInHeard, note } from './machine.js';
import { paymentTimings } from './timings.js';

/**
 * Step 5: a settlement is confirmed by the bank's GET; the Pix cash-in for its end-to-end id is kept as evidence.
 * The cash-in usually follows the settlement within a moment; only a late one is looked for among the events the
 * receiver could not match, and once more before the bank's GET is taken as the only evidence. `receive` takes a
 * claimed event as if it had been routed to the workflow; `publish` shows the settlement while the wait lasts.
 */
export async function awaitCashIn(
  journey: PaymentJourney,
  cashInWaitMs: number | undefined,
  receive: (event: ReceivedWebhook) => void,
  publish: () => void,
): Promise<void> {
  if (journey.payment?.status !== 'settled') return;
  if (!cashInHeard(journey)) publish();
  const waitForCashIn = async (ms: number) =>
    cashInHeard(journey) || (ms > 0 && condition(() => cashInHeard(journey), ms));
  const claimCashIns = async () => {
    const endToEndId = journey.payment?.end_to_end_id;
    if (!cashInHeard(journey) && endToEndId) {
      for (const event of await temporal.claimUnmatchedCashIns(endToEndId, workflowInfo().workflowId))
        receive(event);
    }
    return cashInHeard(journey);
  };
  const waitMs = cashInWaitMs ?? paymentTimings.cashInWaitMs;
  const graceMs = Math.min(waitMs, paymentTimings.cashInGraceMs);
  const heard =
    (await waitForCashIn(graceMs)) ||
    (await claimCashIns()) ||
    (await waitForCashIn(waitMs - graceMs)) ||
    (await claimCashIns());
  if (!heard) {
    note(journey, {
      source: 'poll',
      status: 'settled',
      at: now(),
      detail: "no Pix cash-in event arrived; the bank's GET confirms the settlement",
    });
  }
}
