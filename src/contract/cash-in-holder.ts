import { defineSignal } from '@temporalio/workflow';
import { unmatchedWebhookStatuses, type UnmatchedWebhookResolution } from './unmatched-webhook.js';
import type { ReceivedWebhook } from './webhook-events.js';

/**
 * The workflow that holds the Pix cash-in events of one end-to-end id until the payment with that id claims
 * them; its id is `workflowIds.cashIn(endToEndId)`. The receiver signals-with-start it (`holdCashInSignal`),
 * the payment's claim signals-with-start it too (`claimCashInsSignal`), so either may come first.
 */
export const cashInHolderWorkflowType = 'cashInHolderWorkflow';
export type CashInHolderWorkflow = (carried?: CashInHolderCarry) => Promise<CashInHolderResult>;

/** What a holder's next run carries when it continues as new onto a new version of bankflow. */
export interface CashInHolderCarry {
  events: ReceivedWebhook[];
  forwarded: string[];
  claimedBy?: string;
  resolution?: UnmatchedWebhookResolution;
  /** When the holder's first run started (epoch ms): its claim window and its retention count from there. */
  startedAt: number;
  /** Once claimed: when the holder ends (epoch ms), `cashInHolderTimings.afterClaim` after the claim. */
  endsAt?: number;
}

/** A cash-in event for the holder's end-to-end id, as the receiver took it. */
export const holdCashInSignal = defineSignal<[ReceivedWebhook]>('holdCashIn');

/** The workflow that claims the held events; it gets them, and every later one, by its webhook signal. */
export interface CashInClaim {
  claimedBy: string;
}
export const claimCashInsSignal = defineSignal<[CashInClaim]>('claimCashIns');

/**
 * BankflowStatus of a holder: held while its payment may still claim it, then unmatched (BankflowKind becomes
 * webhook-unmatched, so support's list shows it) until claimed, resolved with a note, or expired.
 */
export const cashInHolderStatuses = {
  held: 'held',
  claimed: 'claimed',
  unmatched: unmatchedWebhookStatuses.open,
  resolved: unmatchedWebhookStatuses.resolved,
  expired: unmatchedWebhookStatuses.expired,
} as const;

export const cashInHolderTimings = {
  /**
   * How long the held events wait for their payment before support sees them as unmatched. A payment claims
   * when its GET shows the settlement; past its first minutes it polls every 30 minutes at most.
   */
  claimWindow: '1 hour',
  /**
   * How long a claimed holder stays to forward copies and late events to its payment: as long as the longest
   * freshness window (WEBHOOK_MAX_AGE_SECONDS) lets the bank retry an event in, so a copy never outlives its
   * holder.
   */
  afterClaim: '1 day',
} as const;

export interface CashInHolderResult {
  events: ReceivedWebhook[];
  claimedBy?: string;
  /** The events the holder signalled to its claimer, by key. */
  forwarded: string[];
  resolution: UnmatchedWebhookResolution | 'claimed' | 'expired';
}
