import { msToNumber } from '@temporalio/common/lib/time.js';
import {
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  log,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  cashInHolderStatuses,
  cashInHolderTimings,
  claimCashInsSignal,
  holdCashInSignal,
  type CashInHolderCarry,
  type CashInHolderResult,
} from '../contract/cash-in-holder.js';
import { paymentWebhookSignal, searchAttributes } from '../contract/temporal.js';
import { unmatchedWebhookRetention } from '../contract/unmatched-webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';
import { waitOnCurrentVersion, watchForNewVersion } from './shared/journey-run.js';
import { acceptResolution } from './shared/unmatched-resolution.js';

const status = (kind: 'cash-in' | 'webhook-unmatched', value: string) =>
  upsertSearchAttributes([
    { key: searchAttributes.kind, value: kind },
    { key: searchAttributes.status, value },
  ]);

/**
 * The Pix cash-in events of one end-to-end id (the workflow id names it), held until the payment showing that
 * id claims them: the receiver lands every cash-in here by id, whether or not the payment exists or knows its
 * end-to-end id yet. The claim hands the claimer every event held so far, and every later one as it arrives,
 * each once, by the claimer's webhook signal. Unclaimed past the claim window, the holder shows as an
 * unmatched webhook event to support (who may resolve it with a note) and is still claimable until the
 * unmatched retention ends. A new version of bankflow takes the holder over by continue-as-new (`carried`),
 * its times unchanged.
 */
export async function cashInHolderWorkflow(carried?: CashInHolderCarry): Promise<CashInHolderResult> {
  const newVersion = watchForNewVersion();
  const events: ReceivedWebhook[] = carried?.events ?? [];
  const forwarded: string[] = carried?.forwarded ?? [];
  let claimedBy = carried?.claimedBy;
  const resolution = acceptResolution(carried?.resolution);
  const startedAt = carried?.startedAt ?? Date.now();
  let endsAt = carried?.endsAt;

  const forward = async (claimer: string, event: ReceivedWebhook) => {
    try {
      await getExternalWorkflowHandle(claimer).signal(paymentWebhookSignal, event);
      forwarded.push(event.key);
    } catch (error) {
      // The claimer has closed: the event stays in this holder's result, where support finds it.
      log.warn('a held cash-in could not reach its claimer', { claimer, key: event.key, error });
    }
  };
  setHandler(holdCashInSignal, async (event) => {
    // The receiver's copies of one event (a bank retry on another replica) each signal; the key tells them
    // apart.
    if (events.some((held) => held.key === event.key)) return;
    events.push(event);
    if (claimedBy !== undefined) await forward(claimedBy, event);
  });
  setHandler(claimCashInsSignal, async ({ claimedBy: claimer }) => {
    if (claimedBy !== undefined) return;
    claimedBy = claimer;
    // What arrives from now on is forwarded by the hold handler: the events held until this moment go from
    // here.
    for (const event of [...events]) await forward(claimer, event);
  });

  const wait = (done: () => boolean, until: number) =>
    waitOnCurrentVersion<typeof cashInHolderWorkflow>(done, until, newVersion, () => [
      { events, forwarded, claimedBy, resolution: resolution(), startedAt, endsAt },
    ]);
  const settled = () => claimedBy !== undefined || resolution() !== undefined;
  const claimWindowEnds = startedAt + msToNumber(cashInHolderTimings.claimWindow);
  if (!(await wait(settled, claimWindowEnds))) {
    status('webhook-unmatched', cashInHolderStatuses.unmatched);
    await wait(settled, claimWindowEnds + msToNumber(unmatchedWebhookRetention));
  }
  if (claimedBy !== undefined) {
    status('cash-in', cashInHolderStatuses.claimed);
    endsAt ??= Date.now() + msToNumber(cashInHolderTimings.afterClaim);
    await wait(() => false, endsAt);
  } else {
    status('webhook-unmatched', cashInHolderStatuses[resolution() ? 'resolved' : 'expired']);
  }
  await condition(allHandlersFinished);
  return {
    events,
    forwarded,
    ...(claimedBy === undefined ? {} : { claimedBy }),
    resolution: claimedBy === undefined ? (resolution() ?? 'expired') : 'claimed',
  };
}
