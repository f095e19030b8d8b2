import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { BankClient } from '../bank/client.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import { workflowIds } from '../workflows/ids.js';
import { recurrenceAttemptsSignal, toRecurrenceAttempt } from '../workflows/recurrence/definitions.js';
import type {
  AttemptsPageQuery,
  AttemptsPageResult,
  UnknownRecurrence,
} from '../workflows/sync/attempts-definitions.js';
import { bankActivity } from './failures.js';

/** Temporal's answer to a signal for a workflow that does not exist or has closed. */
const isNotFound = (error: unknown) => error instanceof WorkflowNotFoundError;

/** Signals one recurrence its attempts from a page; answers the recurrence as unknown when it has no workflow. */
async function signalRecurrence(
  client: Client,
  externalId: string,
  attempts: CollectionAttempt[],
): Promise<UnknownRecurrence | undefined> {
  const handle = client.workflow.getHandle(workflowIds.recurrence(externalId));
  try {
    await handle.signal(recurrenceAttemptsSignal, {
      source: 'sync',
      attempts: attempts.map(toRecurrenceAttempt),
    });
    return undefined;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const closed = await handle.describe().then(
    () => true,
    (error: unknown) => {
      if (isNotFound(error)) return false;
      throw error;
    },
  );
  return {
    externalId,
    recurrenceId: attempts.find((attempt) => attempt.recurrence_id)?.recurrence_id ?? null,
    workflow: closed ? 'closed' : 'missing',
    attempts: attempts.length,
    attemptIds: attempts.map((attempt) => attempt.id),
  };
}

/**
 * One page of the attempts sync: fetches the page, then sends each recurrence on it one signal with its
 * attempts. A retry fetches and signals the same page again, which the recurrence workflows take as duplicates.
 * Only counts go back into the sync's history, never the records, so a page costs the same few events whatever
 * it holds.
 */
export async function syncAttemptsPage(
  bank: BankClient,
  client: Client,
  query: AttemptsPageQuery,
): Promise<AttemptsPageResult> {
  const page = await bank.listCollectionAttempts(query);
  const byRecurrence = new Map<string, CollectionAttempt[]>();
  const byStatus: Record<string, number> = {};
  for (const attempt of page.data) {
    byStatus[attempt.status] = (byStatus[attempt.status] ?? 0) + 1;
    const group = byRecurrence.get(attempt.external_id) ?? [];
    group.push(attempt);
    byRecurrence.set(attempt.external_id, group);
  }
  const outcomes = await Promise.all(
    [...byRecurrence].map(async ([externalId, attempts]) => ({
      externalId,
      unknown: await signalRecurrence(client, externalId, attempts),
    })),
  );
  return {
    attempts: page.data.length,
    byStatus,
    updated: outcomes.filter((outcome) => !outcome.unknown).map((outcome) => outcome.externalId),
    unknown: outcomes.flatMap((outcome) => (outcome.unknown ? [outcome.unknown] : [])),
    next: page.metadata.has_next ? page.metadata.after : null,
  };
}

/** The sync's page activity; it signals through the worker's own Temporal client. */
export function createAttemptsSyncActivities(bank: BankClient) {
  return {
    syncAttemptsPage: bankActivity((query: AttemptsPageQuery) =>
      syncAttemptsPage(bank, Context.current().client, query),
    ),
  };
}
