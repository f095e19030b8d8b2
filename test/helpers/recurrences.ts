import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Client } from '@temporalio/client';
import type { History } from '@temporalio/common/lib/proto-utils.js';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest } from '../../src/bank/schemas/recurrence.js';
import type { RunningSandbox } from '../../devkit/sandbox/app.js';
import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import { collectionAttemptsPath } from '../../devkit/sandbox/routes/recurrences.js';
import type { AttemptsSyncSummary } from '../../src/contract/attempts-sync.js';
import type { TestStack } from './stack.js';

let sequence = 0;
export const uniqueExternalId = (label: string) => `${label}-${Date.now()}-${++sequence}`;

/** A complete generate-recurrence request for one of the sandbox's virtual accounts. */
export function recurrenceRequest(
  stack: TestStack,
  overrides: Partial<GenerateRecurrenceRequest> = {},
): GenerateRecurrenceRequest {
  return {
    ...exampleRecurrenceRequest({
      externalId: uniqueExternalId('rec'),
      virtualAccountId: stack.sandbox.state.world.virtualAccountIds[0]!,
    }),
    ...overrides,
  };
}

/** The sandbox's stored attempts whose timestamp falls in [from, to): the independent answer to a sync. */
export function attemptsIn(sandbox: RunningSandbox, from: string, to: string): CollectionAttempt[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  return [...sandbox.state.bankData.attempts.values()].filter(
    (attempt) => Date.parse(attempt.timestamp) >= start && Date.parse(attempt.timestamp) < end,
  );
}

export function countByStatus(attempts: { status: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const attempt of attempts) counts[attempt.status] = (counts[attempt.status] ?? 0) + 1;
  return counts;
}

/** The summary a sync of these attempts must return, computed from the sandbox's records alone. */
export function expectedSummary(
  attempts: CollectionAttempt[],
  withWorkflow: Set<string>,
): Pick<AttemptsSyncSummary, 'attempts' | 'byStatus' | 'recurrencesUpdated' | 'unknownAttempts'> {
  const recurrences = new Set(attempts.map((attempt) => attempt.external_id));
  return {
    attempts: attempts.length,
    byStatus: countByStatus(attempts),
    recurrencesUpdated: [...recurrences].filter((id) => withWorkflow.has(id)).length,
    unknownAttempts: attempts.filter((attempt) => !withWorkflow.has(attempt.external_id)).length,
  };
}

export interface AttemptsListRequest {
  after: string | null;
  status: number;
  /** performance.now() when the sandbox answered. */
  at: number;
}

/**
 * Every request the sandbox answered on the attempts list, with its cursor and status code, observed on the
 * sandbox's own HTTP server (a second listener that only watches).
 */
export function recordAttemptsListRequests(sandbox: RunningSandbox): AttemptsListRequest[] {
  const seen: AttemptsListRequest[] = [];
  sandbox.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    if (request.method !== 'GET' || url.pathname !== collectionAttemptsPath) return;
    response.on('finish', () =>
      seen.push({ after: url.searchParams.get('after'), status: response.statusCode, at: performance.now() }),
    );
  });
  return seen;
}

/** The history of every run of a workflow, first to last, following continue-as-new. */
async function runHistories(client: Client, workflowId: string): Promise<History[]> {
  const latest = await client.workflow.getHandle(workflowId).describe();
  let runId: string | undefined = latest.raw.workflowExecutionInfo?.firstRunId ?? latest.runId;
  const histories: History[] = [];
  while (runId) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    histories.push(history);
    runId =
      history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return histories;
}

/** The history length of every run of a workflow, first to last, following continue-as-new. */
export async function runHistoryLengths(client: Client, workflowId: string): Promise<number[]> {
  return (await runHistories(client, workflowId)).map((history) => history.events?.length ?? 0);
}

/** How many signals of one name a workflow took, over all its runs. */
export async function signalsReceived(
  client: Client,
  workflowId: string,
  signalName: string,
): Promise<number> {
  return (await runHistories(client, workflowId))
    .flatMap((history) => history.events ?? [])
    .filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === signalName).length;
}
