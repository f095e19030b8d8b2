import { z } from 'zod';
import { searchAttributes } from '../contract/temporal.js';
import type { StarterContext } from './context.js';
import { contextCustomerKey, taxNumberInput } from './customer-key.js';
import { parseInput } from './errors.js';
import { stuckRules, supportQueries, type StuckRule } from './support-queries.js';

/** A workflow as support staff's lists show it. */
export interface SupportWorkflowRow {
  workflowId: string;
  /** BankflowKind: payment, enrollment, ... */
  kind: string;
  /** BankflowStatus: the journey's state (docs/support.md says what each means). */
  status: string;
  /** Temporal's own: RUNNING, COMPLETED, FAILED, ... */
  execution: string;
  startedAt: string;
  closedAt: string | null;
}

async function listWorkflows(ctx: StarterContext, query: string): Promise<SupportWorkflowRow[]> {
  const rows: SupportWorkflowRow[] = [];
  for await (const workflow of ctx.client.workflow.list({ query })) {
    rows.push({
      workflowId: workflow.workflowId,
      kind: workflow.typedSearchAttributes.get(searchAttributes.kind) ?? '',
      status: workflow.typedSearchAttributes.get(searchAttributes.status) ?? '',
      execution: workflow.status.name,
      startedAt: workflow.startTime.toISOString(),
      closedAt: workflow.closeTime?.toISOString() ?? null,
    });
  }
  return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

const findInput = z.object({ taxNumber: taxNumberInput });

/**
 * Every enrollment and payment started for the customer with this CPF or CNPJ (punctuation allowed), newest
 * first, found by its keyed hash: the number itself is never sent to Temporal.
 */
export async function findCustomerWorkflows(
  ctx: StarterContext,
  input: z.input<typeof findInput>,
): Promise<{ customerKey: string; query: string; workflows: SupportWorkflowRow[] }> {
  const { taxNumber } = parseInput(findInput, input);
  const key = contextCustomerKey(ctx, 'taxNumber', taxNumber);
  const query = supportQueries.customer(key);
  return { customerKey: key, query, workflows: await listWorkflows(ctx, query) };
}

/** A journey past the time its state should last, with the rule it broke. */
export interface StuckJourney extends SupportWorkflowRow {
  stuckForMs: number;
  rule: StuckRule;
}

/**
 * The running enrollments and payments of the context's task queue that have stayed in a state longer than
 * the bank's windows allow (support-queries.ts), as of `asOf` (default now), longest stuck first.
 */
export async function listStuckJourneys(
  ctx: StarterContext,
  { asOf = new Date() }: { asOf?: Date } = {},
): Promise<StuckJourney[]> {
  const found = await Promise.all(
    stuckRules.map(async (rule) =>
      (await listWorkflows(ctx, supportQueries.stuck(rule, ctx.taskQueue, asOf))).map((row) => ({
        ...row,
        stuckForMs: asOf.getTime() - Date.parse(row.startedAt) - rule.withinMs,
        rule,
      })),
    ),
  );
  return found.flat().sort((a, b) => b.stuckForMs - a.stuckForMs);
}
