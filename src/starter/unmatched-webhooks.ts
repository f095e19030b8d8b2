import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/common';
import { z } from 'zod';
import { printableOnly } from '../bank/schemas/printable.js';
import { listKeptEvents, type KeptEvent } from '../temporal/kept-events.js';
import { unmatchedWorkflowId } from '../webhooks/deliver.js';
import { workflowIds } from '../contract/ids.js';
import { searchAttributes } from '../contract/temporal.js';
import {
  resolveUnmatchedWebhookUpdate,
  type UnmatchedWebhookResolution,
} from '../contract/unmatched-webhook.js';
import type { StarterContext } from './context.js';
import { InvalidInputError, parseInput } from './errors.js';
import { askWorkflow } from './merchant-requests.js';
import { supportQueries } from './support-queries.js';

/**
 * The bank events no workflow claimed that are still open on the context's task queue, oldest first: each is
 * a workflow `webhook-unmatched:<event key>`, or a Pix cash-in holder `cash-in:<end-to-end id>` no payment
 * claimed within its claim window, waiting for someone to look at it.
 */
export async function listUnmatchedWebhooks(ctx: StarterContext): Promise<KeptEvent[]> {
  const kept = await listKeptEvents(ctx.client, supportQueries.unmatched(ctx.taskQueue));
  return kept.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
}

const resolveInput = z.object({
  event: z.string().trim().min(1, 'must name the event: its workflow id or its key').check(printableOnly()),
  note: z.string().trim().min(1, 'must say what was done about the event').check(printableOnly()),
  by: z.string().trim().min(1, 'must name who resolves the event').check(printableOnly()),
});

const keptPrefixes = [workflowIds.unmatchedWebhook(''), workflowIds.cashIn('')];

/**
 * The workflow keeping an event named by its workflow id (`webhook-unmatched:...`, or a cash-in holder's
 * `cash-in:...`) or by its event key.
 */
const workflowIdOf = (event: string) =>
  keptPrefixes.some((prefix) => event.startsWith(prefix)) ? event : unmatchedWorkflowId(event);

/**
 * Resolves an open unmatched event with a note, recorded in its workflow's history, which then closes as
 * `resolved`. Refuses an id no unmatched event has, and an event already resolved or expired.
 */
export async function resolveUnmatchedWebhook(
  ctx: StarterContext,
  input: z.input<typeof resolveInput>,
): Promise<UnmatchedWebhookResolution & { workflowId: string }> {
  const { event, note, by } = parseInput(resolveInput, input);
  const workflowId = workflowIdOf(event);
  const handle = ctx.client.workflow.getHandle(workflowId);
  const description = await handle.describe().catch((error: unknown) => {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  });
  if (description?.typedSearchAttributes.get(searchAttributes.kind) !== 'webhook-unmatched') {
    throw new InvalidInputError(
      'event',
      `no unmatched webhook event ${JSON.stringify(event)} (\`bankflow support unmatched\` lists the open ones)`,
    );
  }
  const resolution = await askWorkflow(ctx, handle, randomUUID(), (updateId) =>
    handle.executeUpdate(resolveUnmatchedWebhookUpdate, { args: [{ by, note }], updateId }),
  );
  return { ...resolution, workflowId };
}
