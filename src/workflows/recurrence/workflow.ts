import {
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { confirmAnnouncedAttempts, heardAttemptWebhook } from './attempt-webhooks.js';
import {
  defaultRecurrenceSettings,
  recurrenceAttemptsSignal,
  recurrenceGeneratedUpdate,
  sensitiveRecurrenceTerms,
  recurrenceStateQuery,
  recurrenceWebhookSignal,
  type RecurrenceInput,
  type RecurrenceResult,
} from './definitions.js';
import { checkStartTerms } from '../shared/start-terms.js';
import { generateAtBank } from './generate.js';
import { RecurrenceRun } from './run.js';

/**
 * A Pix recurrence for as long as it lives: generates it at the bank with the merchant's full request, then
 * follows its collection attempts as the attempts sync and the bank's `recurrence_collection_attempt` webhooks
 * report them (deduplicated, newest status wins), queryable at any time. A webhook is a hint: the attempt it names
 * is read from the bank, and what the bank's GET answers is taken, never the webhook's data (see
 * attempt-webhooks.ts). The spec shows no event or read for the
 * recurrence itself, so the bank's word on its status is the generate response: a rejected, cancelled or
 * expired recurrence ends the workflow at once; an approved one is followed until the workflow is terminated.
 * History stays bounded: the run continues as new, carrying the attempt table, at `maxHistoryEvents` or when
 * Temporal suggests it.
 */
export async function recurrenceWorkflow(input: RecurrenceInput): Promise<RecurrenceResult> {
  const settings = { ...defaultRecurrenceSettings, ...input.settings };
  const run = new RecurrenceRun(input, settings.maxAttemptsKept);
  const continueAsNewDue = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= settings.maxHistoryEvents;

  setHandler(recurrenceStateQuery, () => run.query());
  setHandler(recurrenceAttemptsSignal, (batch) => run.take(batch.attempts, batch.source));
  setHandler(recurrenceWebhookSignal, (event) => heardAttemptWebhook(run, event));
  setHandler(
    recurrenceGeneratedUpdate,
    async () => {
      await condition(() => run.recurrence !== undefined || run.failure !== undefined);
      if (!run.recurrence) throw run.failure;
      return run.recurrence;
    },
    { validator: (terms) => checkStartTerms(terms, sensitiveRecurrenceTerms) },
  );

  const recurrence = run.recurrence ?? (await generateAtBank(run, input.request));
  if (run.ended()) run.state.reason = `the bank reports the recurrence ${recurrence.status}`;
  run.publish();

  if (!run.ended()) {
    await confirmAnnouncedAttempts(run, continueAsNewDue);
    await condition(allHandlersFinished);
    await continueAsNew<typeof recurrenceWorkflow>({ ...input, resume: run.carry(recurrence) });
  }

  await condition(allHandlersFinished);
  return run.result(recurrence);
}
