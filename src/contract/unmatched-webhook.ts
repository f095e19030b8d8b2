import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReceivedWebhook } from './webhook-events.js';

/**
 * The workflow that keeps a bank event no workflow claimed, started by the receiver with the event in its
 * memo (`memoKeys.event`); its id is `workflowIds.unmatchedWebhook(key)`.
 */
export const unmatchedWebhookWorkflowType = 'unmatchedWebhookWorkflow';
export type UnmatchedWebhookWorkflow = (
  event: ReceivedWebhook,
  carried?: UnmatchedWebhookCarry,
) => Promise<UnmatchedWebhookResult>;

/** What a kept event's next run carries when it continues as new onto a new version of bankflow. */
export interface UnmatchedWebhookCarry {
  /** When the event's retention ends (epoch ms), counted from its first run's start. */
  retainedUntil: number;
  resolution?: UnmatchedWebhookResolution;
}

export interface UnmatchedWebhookResolution {
  by: string;
  note: string;
}

/**
 * What the Temporal UI's signal dialog sends: `resolveUnmatchedWebhook` with `{"by": "...", "note": "..."}`.
 */
export const resolveUnmatchedWebhookSignal =
  defineSignal<[UnmatchedWebhookResolution]>('resolveUnmatchedWebhook');
/**
 * The same resolution as an update: refused (and not recorded) without a note or once resolved; answers it.
 */
export const resolveUnmatchedWebhookUpdate = defineUpdate<
  UnmatchedWebhookResolution,
  [UnmatchedWebhookResolution]
>('resolveUnmatchedWebhookWithAnswer');

/**
 * BankflowStatus of an unmatched event: open, resolved with a note (or claimed by its workflow), or left to
 * expire.
 */
export const unmatchedWebhookStatuses = {
  open: 'unmatched',
  resolved: 'resolved',
  expired: 'expired',
} as const;

/** How long an unclaimed event stays open for someone to look at before the workflow closes on its own. */
export const unmatchedWebhookRetention = '30 days';

/** How the event was left: resolved with a note, or expired. */
export interface UnmatchedWebhookResult {
  event: ReceivedWebhook;
  resolution: UnmatchedWebhookResolution | 'expired';
}
