import { defineSignal } from '@temporalio/workflow';
import type { JobWindow } from './jobs.js';

/**
 * The workflow that kept where a schedule's covered time ends on bankflow 1.0: one per schedule, started by its first
 * claim; runs started since take their window from the schedule's last completed run.
 */
export const windowCursorWorkflowType = 'jobWindowCursor';

export const windowCursorWorkflowId = (scheduleId: string) => `window-cursor:${scheduleId}`;

/**
 * A catch-up window spans at most this many of its schedule's times; a longer lag is covered in windows of that
 * size one after the other (a day of hourly metrics, six hours of 15-minute syncs, 24 days of daily reports).
 */
export const maxScheduledTimesPerWindow = 24;

/** A scheduled run asking which window it covers. */
export interface WindowClaim {
  /** The claiming run (its chain and the run it continues): it asks once; a continued run asks again. */
  claimId: string;
  workflowId: string;
  scheduleId: string;
  /** The run's scheduled time: no window it is given ends later. */
  scheduledAt: string;
  /** The schedule's time before `scheduledAt`: where the first window ever starts, and a re-run's window. */
  previous: string;
}

/**
 * The cursor's answer. `claimed`: the window starts where the last completed one ended and is this run's alone
 * until it completes it. Otherwise the run's scheduled time is already covered (a backfill or a re-run) and it
 * covers its scheduled interval again, moving nothing.
 */
export interface WindowGrant {
  claimId: string;
  window: JobWindow;
  claimed: boolean;
}

/** A run that finished its claimed window, sent just before the run completes. */
export interface WindowDone {
  workflowId: string;
  window: JobWindow;
}

export const windowClaimSignal = defineSignal<[WindowClaim]>('windowClaim');
export const windowGrantSignal = defineSignal<[WindowGrant]>('windowGrant');
export const windowDoneSignal = defineSignal<[WindowDone]>('windowDone');

/** What the cursor publishes in its memo (`bankflowState`) and carries across continue-as-new. */
export interface WindowCursorState {
  /** The end of the last completed window; null until a run completed one. */
  coveredUntil: string | null;
  /** The window a running run holds. */
  held: { claimId: string; workflowId: string; window: JobWindow } | null;
  /** Claims waiting for the held window to be completed or given up. */
  waiting: WindowClaim[];
}
