import type { OpenLoopRun } from '../pacing.js';

/** One signed webhook exactly as the bank would POST it. */
export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/** One `signalWithStart` of the bare baseline: the same workflow and event the receiver would signal. */
export interface SignalRequest {
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  args: unknown[];
  signal: string;
  signalArgs: unknown[];
}

interface Pacing {
  ratePerSecond: number;
  durationMs: number;
}

/** Request `i` of a run is `requests[i]`: every event is new, so no workflow drops one as a duplicate. */
export type LoadJob =
  | (Pacing & { kind: 'webhooks'; url: string; requests: WebhookRequest[] })
  | (Pacing & { kind: 'signals'; address: string; namespace: string; requests: SignalRequest[] });

export type LoadMessage = { id: number; job: LoadJob };

export type LoadReply = { id: number; run: OpenLoopRun } | { id: number; error: string };
