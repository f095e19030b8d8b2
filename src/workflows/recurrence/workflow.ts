import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  bankTroubleValue,
  searchAttributes,
  cancelRecurrenceUpdate,
  recurrenceAttemptsSignal,
  recurrenceGeneratedUpdate,
  recurrenceStateQuery,
  recurrenceWebhookSignal,
} from '../../contract/temporal.js';
import { memoKeys } from '../../contract/journeys.js';
import {
  publishToMemo,
  SearchAttributesPublisher,
  checkStartTerms,
  continueWith,
  versionCheckIntervalMs,
  watchForNewVersion,
  runDeadline,
} from '../shared/journey-run.js';
import { generateRecurrence, readAttempt } from './bank-calls.js';
import { currentDetails } from './current-details.js';
import {
  defaultRecurrenceSettings,
  sensitiveRecurrenceTerms,
  type RecurrenceAttempt,
  type RecurrenceInput,
  type RecurrenceResult,
} from '../../contract/recurrence.js';
import { checkCancel } from './cancel.js';
import { RecurrenceNotifier } from './notifications.js';
import { RecurrenceJourney } from './state.js';

/**
 * A Pix recurrence for as long as it lives. It generates the recurrence at the bank with the merchant's full
 * request and answers the start's update with the bank's recurrence (a refusal ends the workflow). Then it
 * follows the recurrence's collection attempts as the attempts sync and the bank's
 * `recurrence_collection_attempt` webhooks report them (deduplicated, newest status wins), queryable at any
 * time. A webhook is a hint: the attempt it names is read from the bank, and what the bank's GET answers is
 * taken, never the webhook's data. The spec shows no event or read for the recurrence itself, so a generate
 * response that shows it rejected, cancelled or expired ends the workflow at once; an approved one is
 * followed until the merchant cancels it (an update with a reason), each run continuing as new, carrying the
 * attempt table and the newest webhook keys, at `maxHistoryEvents`, when Temporal suggests it, once the run
 * has been open for its lifetime (at most 30 days), or at the first workflow task that finds a new version
 * current, whose next run starts on that version.
 */
export async function recurrenceWorkflow(input: RecurrenceInput): Promise<RecurrenceResult> {
  const newVersion = watchForNewVersion();
  const runEnds = runDeadline(input.settings?.maxRunMs);
  const settings = { ...defaultRecurrenceSettings, ...input.settings };
  const journey = new RecurrenceJourney(input, settings.maxAttemptsKept);
  const notifier = new RecurrenceNotifier(() => journey.notifications);
  const publish = publisher(journey);
  let refusal: ApplicationFailure | undefined;
  /**
   * After the journey took attempts: the merchant is told of those in a new status, and the summary
   * published.
   */
  const tookAttempts = (moved: RecurrenceAttempt[]) => {
    if (journey.recurrence && moved.length > 0) notifier.attemptsMoved(journey.recurrence, moved);
    publish();
  };

  setHandler(recurrenceStateQuery, () => journey.query());
  setHandler(recurrenceAttemptsSignal, (batch) => tookAttempts(journey.took(batch.attempts, batch.source)));
  setHandler(recurrenceWebhookSignal, (event) => {
    if (journey.heardWebhook(event, Date.now())) publish();
  });
  setHandler(
    cancelRecurrenceUpdate,
    async ({ reason }) => {
      journey.cancelRequested(reason.trim());
      await condition(() => journey.ended());
      if (!journey.recurrence) throw refusal;
      return journey.result(journey.recurrence);
    },
    { validator: (request) => checkCancel(request, journey) },
  );
  setHandler(
    recurrenceGeneratedUpdate,
    async () => {
      await condition(() => journey.recurrence !== undefined || refusal !== undefined);
      if (!journey.recurrence) throw refusal;
      return journey.recurrence;
    },
    { validator: (terms) => checkStartTerms(terms, sensitiveRecurrenceTerms) },
  );

  let recurrence = journey.recurrence;
  if (!recurrence) {
    const generated = await generateRecurrence(input.request);
    if (generated instanceof ApplicationFailure) {
      refusal = generated;
      journey.refused(generated.message);
      publish();
      await condition(allHandlersFinished);
      throw generated;
    }
    journey.generated(generated);
    notifier.generated(generated);
    recurrence = generated;
  }
  publish();

  if (!journey.ended()) {
    const cancelled = () => journey.cancelReason !== undefined;
    const stop = () => cancelled() || newVersion() || continueAsNewDue(settings.maxHistoryEvents, runEnds);
    await confirmAnnouncedAttempts(journey, stop, runEnds, tookAttempts, publish);
    // A cancel's handler waits for the ending, so a cancel accepted until the run may continue as new (its
    // events handed over: the next run numbers on from the carried count) ends the run instead. The check and
    // the continue-as-new share one workflow task, so no cancel comes between them.
    await condition(() => cancelled() || notifier.mayEnd());
    if (!cancelled()) {
      await notifier.runFinished();
      await continueWith<typeof recurrenceWorkflow>('current', {
        ...input,
        resume: journey.carry(recurrence),
      });
    }
    journey.stop();
    publish();
  }

  await notifier.runFinished();
  return journey.result(recurrence);
}

/**
 * Whether the run should hand over to a new one: Temporal suggests it, its history is full or its lifetime
 * over.
 */
function continueAsNewDue(maxHistoryEvents: number, runEnds: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= maxHistoryEvents || Date.now() >= runEnds;
}

/** Publishes the summary to the memo, the search attributes and the current details, after every change. */
function publisher(journey: RecurrenceJourney): () => void {
  const searchAttributesPublisher = new SearchAttributesPublisher();
  return () => {
    const state = journey.summary();
    publishToMemo([{ key: memoKeys.state, value: state }]);
    searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.status ?? state.phase },
      ...(state.recurrenceId ? [{ key: searchAttributes.recurrenceId, value: state.recurrenceId }] : []),
      { key: searchAttributes.bankTrouble, value: bankTroubleValue(state) },
    ]);
    setCurrentDetails(currentDetails(journey));
  };
}

/**
 * Until `stop` answers true, reads the attempts webhooks announced as their turns come, and takes the
 * answers; no wait lasts past `runEnds` (the run's lifetime) or `versionCheckIntervalMs`, so `stop` is asked
 * at least daily. A read the bank fails is shown (`publish`) and tried again at the confirmations' backoff.
 */
async function confirmAnnouncedAttempts(
  journey: RecurrenceJourney,
  stop: () => boolean,
  runEnds: number,
  took: (moved: RecurrenceAttempt[]) => void,
  publish: () => void,
): Promise<void> {
  const { confirmations } = journey;
  while (!stop()) {
    const next = confirmations.nextAt();
    const sooner = () => stop() || (confirmations.nextAt() ?? Infinity) < (next ?? Infinity);
    const wakeAt = Math.min(next ?? Infinity, runEnds, Date.now() + versionCheckIntervalMs);
    if (wakeAt > Date.now()) await condition(sooner, wakeAt - Date.now());
    // A run due to continue as new leaves its reads to the next run, which makes them at once: each read
    // costs the history about ten events, and a run must not grow far past `maxHistoryEvents`.
    if (stop()) return;
    for (const attemptId of confirmations.due(Date.now()))
      took(journey.read(attemptId, await readAttempt(journey.state, attemptId, publish), Date.now()));
  }
}
