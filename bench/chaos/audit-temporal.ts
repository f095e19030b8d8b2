import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import { workflowIds } from '../../src/contract/ids.js';
import { searchAttributes } from '../../src/contract/temporal.js';
import { webhookEventKey } from '../../src/contract/webhook-events.js';
import type { RunHistory } from './histories.js';
import type { Violations } from './violations.js';

const unmatchedPrefix = workflowIds.unmatchedWebhook('');

/**
 * Workflows that run on by design: an authorized enrollment, a recurrence, an unclaimed event kept for
 * support, a cash-in holder (a day past its claim, or until its payment claims it).
 */
const longLived = new Set([
  'enrollmentWorkflow',
  'recurrenceWorkflow',
  'unmatchedWebhookWorkflow',
  'cashInHolderWorkflow',
  // An outbox ends after 10 idle minutes. That it owes nothing is the notification audit's: a resource's
  // final event accepted means every earlier one was delivered, since an outbox sends one only after the one
  // before.
  'merchantNotificationsWorkflow',
]);

export interface WebhookAccounting {
  delivered: number;
  inHistories: number;
  unmatched: number;
}

/**
 * Every event the bank delivered (at least one copy answered 2xx) is in a workflow history as a webhook
 * signal with the same key (a Pix cash-in's in its holder's, `cash-in:<end-to-end id>`), or kept in the
 * unmatched-event store (`webhook-unmatched:<key>`).
 */
export function auditWebhooks(
  events: WebhookEventRecord[],
  runs: RunHistory[],
  violations: Violations,
): WebhookAccounting {
  const signalled = new Set(runs.flatMap((run) => run.webhookKeys));
  const unmatched = new Set(
    runs
      .filter((run) => run.info.workflowId.startsWith(unmatchedPrefix))
      .map((run) => run.info.workflowId.slice(unmatchedPrefix.length)),
  );
  const accounting: WebhookAccounting = { delivered: 0, inHistories: 0, unmatched: 0 };
  for (const event of events.filter((candidate) => candidate.delivered_copies > 0)) {
    accounting.delivered++;
    const key = webhookEventKey(event.envelope);
    if (signalled.has(key)) accounting.inHistories++;
    else if (unmatched.has(key)) accounting.unmatched++;
    else {
      violations.add(
        'every delivered webhook is in a history or the unmatched store',
        `event ${event.id}`,
        `${key} was delivered (${event.delivered_copies} copies) but no workflow holds it`,
      );
    }
  }
  return accounting;
}

/**
 * The one cause of a WorkflowTaskFailed event that is not a workflow task failing: the server refusing a
 * completion because a new event arrived while the worker worked; the retry at once takes the new event in.
 */
const completionRace = 'UNHANDLED_COMMAND';

/**
 * No workflow is stuck: no payment still running, running enrollments are authorized ones, nothing closed in
 * failure; no replay ever differed from what a worker recorded; and no workflow task failed in the worker,
 * even one a retry got past: a payload it could not read (the hostile actor's), a bug in workflow code. The
 * server's `UNHANDLED_COMMAND` refusals of a completion that raced a new event are counted in the report, not
 * here.
 */
export function auditWorkflows(runs: RunHistory[], violations: Violations): void {
  for (const run of runs) {
    const { info } = run;
    const subject = `${info.workflowId} (${info.type})`;
    const status = info.status.name;
    if (status === 'RUNNING') {
      if (!longLived.has(info.type)) {
        violations.add('no workflow is stuck', subject, 'still running after every journey ended');
      } else if (info.type === 'enrollmentWorkflow') {
        const phase = info.typedSearchAttributes.get(searchAttributes.status);
        if (phase !== 'authorized') {
          violations.add('no workflow is stuck', subject, `running enrollment in phase ${phase ?? '(none)'}`);
        }
      }
    } else if (status !== 'COMPLETED' && status !== 'CONTINUED_AS_NEW') {
      violations.add('no workflow ends in failure', subject, `closed ${status}`);
    }
    const nondeterministic = run.workflowTaskFailures.filter(
      ({ cause }) => cause === 'NON_DETERMINISTIC_ERROR',
    );
    if (nondeterministic.length > 0) {
      violations.add(
        'no nondeterminism error',
        subject,
        `${nondeterministic.length} workflow task(s) failed replaying the history`,
      );
    }
    const failed = run.workflowTaskFailures.filter(
      ({ cause }) => cause !== completionRace && cause !== 'NON_DETERMINISTIC_ERROR',
    );
    if (failed.length > 0) {
      const first = failed[0];
      violations.add(
        'no workflow has a failed workflow task',
        subject,
        `${failed.length} workflow task(s) failed, the first ${first?.cause}: ${first?.message.slice(0, 200)}`,
      );
    }
  }
}

/**
 * Running workflows whose next workflow task has been tried more than once; a task a killed worker held
 * retries at once on a live one, so only a task that keeps failing is still there after the grace period.
 */
export async function auditPendingTasks(
  client: Client,
  runs: RunHistory[],
  violations: Violations,
  graceMs = 60_000,
): Promise<void> {
  let suspects = runs.filter((run) => run.info.status.name === 'RUNNING');
  const deadline = Date.now() + graceMs;
  for (;;) {
    const found: { run: RunHistory; attempt: number }[] = [];
    for (const run of suspects) {
      const described = await client.workflow.getHandle(run.info.workflowId, run.info.runId).describe();
      const attempt = described.raw.pendingWorkflowTask?.attempt ?? 0;
      if (described.status.name === 'RUNNING' && attempt > 1) found.push({ run, attempt });
    }
    suspects = found.map((item) => item.run);
    if (found.length === 0 || Date.now() >= deadline) {
      for (const { run, attempt } of found) {
        violations.add(
          'no workflow task failures pending',
          `${run.info.workflowId} (${run.info.type})`,
          `pending workflow task on attempt ${attempt}`,
        );
      }
      return;
    }
    await sleep(5_000);
  }
}
