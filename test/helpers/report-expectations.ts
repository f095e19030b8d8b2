import type { Client } from '@temporalio/client';
import type { History } from '@temporalio/common/lib/proto-utils.js';

interface Counted {
  id: string;
  status: string;
  timestamp: string;
  amount: { amount: number };
}

export interface Window {
  from: string;
  to: string;
}

export const inWindow = (record: { timestamp: string }, window: Window) =>
  Date.parse(record.timestamp) >= Date.parse(window.from) &&
  Date.parse(record.timestamp) < Date.parse(window.to);

const reais = (cents: number) => (cents / 100).toFixed(2);

/** Totals as a report file states them, computed here straight from the sandbox's records. */
export function expectedTotals(records: readonly Counted[], window: Window) {
  const matching = records.filter((record) => inWindow(record, window));
  const byStatus: Record<string, { count: number; amount_cents: number; amount_reais: string }> = {};
  for (const status of [...new Set(matching.map((record) => record.status))].sort()) {
    const ofStatus = matching.filter((record) => record.status === status);
    const cents = ofStatus.reduce((sum, record) => sum + record.amount.amount, 0);
    byStatus[status] = { count: ofStatus.length, amount_cents: cents, amount_reais: reais(cents) };
  }
  const cents = matching.reduce((sum, record) => sum + record.amount.amount, 0);
  return { count: matching.length, amount_cents: cents, amount_reais: reais(cents), by_status: byStatus };
}

/** The ids of the records in the window, in the bank's list order (timestamp, then id). */
export function expectedIds(records: readonly Counted[], window: Window): string[] {
  return records
    .filter((record) => inWindow(record, window))
    .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || (a.id < b.id ? -1 : 1))
    .map((record) => record.id);
}

/** A window holding exactly one of `records`: from a record's instant to the next distinct instant. */
export function windowWithOne(
  records: readonly Counted[],
  accept: (record: Counted) => boolean = () => true,
): Window {
  const times = records.map((record) => Date.parse(record.timestamp)).sort((a, b) => a - b);
  const candidate = records.find((record) => {
    if (!accept(record)) return false;
    const at = Date.parse(record.timestamp);
    return times.filter((time) => time === at).length === 1 && times.some((time) => time > at);
  });
  if (!candidate) throw new Error('no record stands alone at its instant');
  const at = Date.parse(candidate.timestamp);
  const next = times.find((time) => time > at) as number;
  return { from: new Date(at).toISOString(), to: new Date(next).toISOString() };
}

/** The history of every run of a workflow, following continue-as-new from the first run. */
export async function historiesOfChain(client: Client, workflowId: string, firstRunId: string) {
  const histories: History[] = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    histories.push(history);
    runId =
      history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return histories;
}

/** The history length of every run of a workflow, following continue-as-new from the first run. */
export async function historyLengthsOfChain(client: Client, workflowId: string, firstRunId: string) {
  return (await historiesOfChain(client, workflowId, firstRunId)).map(
    (history) => history.events?.length ?? 0,
  );
}
