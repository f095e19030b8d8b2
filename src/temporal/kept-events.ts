import type { Client } from '@temporalio/client';
import { searchAttributes } from '../contract/temporal.js';
import { memoKeys } from '../contract/journeys.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/** An unmatched bank event as its workflow keeps it. */
export interface KeptEvent {
  workflowId: string;
  running: boolean;
  /** BankflowStatus: unmatched while open, then resolved or expired. */
  status: string;
  startTime: Date;
  event: ReceivedWebhook;
}

/** The unmatched-webhook workflows a visibility query finds, each with the event it keeps. */
export async function listKeptEvents(temporal: Client, query: string): Promise<KeptEvent[]> {
  const found: KeptEvent[] = [];
  for await (const workflow of temporal.workflow.list({ query })) {
    found.push({
      workflowId: workflow.workflowId,
      running: workflow.status.name === 'RUNNING',
      status: workflow.typedSearchAttributes.get(searchAttributes.status) ?? '',
      startTime: workflow.startTime,
      // The receiver keeps the event in the memo when it starts the workflow.
      event: workflow.memo?.[memoKeys.event] as ReceivedWebhook,
    });
  }
  return found;
}
