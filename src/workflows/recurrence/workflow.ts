import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { CollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import type { Recurrence } from '../../bank/schemas/recurrence.js';
import { bankCallOptions } from '../activity-options.js';
import { searchAttributes } from '../search-attributes.js';
import { memoKeys, publishToMemo } from '../shared/published-memo.js';
import { SearchAttributesPublisher } from '../shared/search-attributes-publisher.js';
import { AttemptConfirmations } from './attempt-confirmations.js';
import {
  AttemptTable,
  noArchivedAttempts,
  type AttemptSource,
  type RecurrenceAttempt,
} from './attempt-table.js';
import {
  defaultRecurrenceSettings,
  endedRecurrenceStatuses,
  initialRecurrenceSummary,
  recurrenceAttemptsSignal,
  recurrenceGeneratedUpdate,
  recurrenceStateQuery,
  recurrenceWebhookSignal,
  toRecurrenceAttempt,
  type RecurrenceInput,
  type RecurrenceOutcome,
  type RecurrencePhase,
  type RecurrenceResult,
  type RecurrenceSummary,
} from './definitions.js';

const bank = proxyActivities<Pick<Activities, 'generateRecurrence'>>(bankCallOptions);
/** A read that keeps failing is tried again by the confirmation's own backoff, so the workflow never waits on it. */
const reads = proxyActivities<Pick<Activities, 'getCollectionAttempt'>>({
  ...bankCallOptions,
  retry: { ...bankCallOptions.retry, maximumAttempts: 3 },
});

/** Runs started before webhooks were confirmed with a GET took the webhook's data as it came. */
const confirmedWebhooksPatch = 'recurrence-webhooks-confirmed-by-get';

const isOutcome = (status: string): status is RecurrenceOutcome =>
  (endedRecurrenceStatuses as readonly string[]).includes(status);

const reais = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;

/**
 * A Pix recurrence for as long as it lives: generates it at the bank with the merchant's full request, then
 * follows its collection attempts as the attempts sync and the bank's `recurrence_collection_attempt` webhooks
 * report them (deduplicated, newest status wins), queryable at any time. A webhook is a hint: the attempt it names
 * is read from the bank, and what the bank's GET answers is taken, never the webhook's data (see
 * attempt-confirmations.ts). The spec shows no event or read for the
 * recurrence itself, so the bank's word on its status is the generate response: a rejected, cancelled or
 * expired recurrence ends the workflow at once; an approved one is followed until the workflow is terminated.
 * History stays bounded: the run continues as new, carrying the attempt table, at `maxHistoryEvents` or when
 * Temporal suggests it.
 */
export async function recurrenceWorkflow(input: RecurrenceInput): Promise<RecurrenceResult> {
  const settings = { ...defaultRecurrenceSettings, ...input.settings };
  const externalId = input.request.external_id;
  const resume = input.resume;
  const table = new AttemptTable(
    resume?.attempts ?? [],
    resume?.archived ?? noArchivedAttempts(),
    settings.maxAttemptsKept,
  );
  const confirmations = new AttemptConfirmations(resume?.confirming);
  let recurrence: Recurrence | undefined = resume?.recurrence;
  let failure: ApplicationFailure | undefined;
  const state: RecurrenceSummary = {
    ...initialRecurrenceSummary(externalId),
    ...(recurrence
      ? {
          phase: phaseOf(recurrence.status),
          recurrenceId: recurrence.id,
          status: recurrence.status,
          recurrence,
        }
      : {}),
    archived: table.archived,
    ...(resume ? { updates: resume.updates, runs: resume.runs + 1 } : {}),
  };

  const continueAsNewDue = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= settings.maxHistoryEvents;

  function phaseOf(status: string): RecurrencePhase {
    return isOutcome(status) ? status : 'active';
  }

  const ended = () => state.phase !== 'generating' && state.phase !== 'active';

  function take(attempts: RecurrenceAttempt[], source: AttemptSource): void {
    for (const outcome of table.applyAll(attempts, source)) {
      if (outcome === 'applied') state.updates.applied++;
      else if (outcome === 'duplicate') state.updates.duplicates++;
      else state.updates.stale++;
    }
    if (source === 'sync') state.updates.fromSync += attempts.length;
    publish();
  }

  const searchAttributesPublisher = new SearchAttributesPublisher();
  function publish(): void {
    state.attemptsByStatus = table.countByStatus();
    const awaiting = confirmations.ids();
    if (awaiting.length > 0) state.awaitingConfirmation = awaiting;
    else delete state.awaitingConfirmation;
    publishToMemo([{ key: memoKeys.state, value: state }]);
    searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.status ?? state.phase },
      ...(state.recurrenceId ? [{ key: searchAttributes.recurrenceId, value: state.recurrenceId }] : []),
    ]);
    const counts = table.countByStatus();
    const latest = table.list()[0];
    const amount = recurrence?.minimum_amount ?? recurrence?.first_payment_amount;
    setCurrentDetails(
      [
        `**Recurrence ${externalId}** — **${state.status ?? state.phase}**`,
        recurrence
          ? `${recurrence.description || 'Pix recurrence'}, ${recurrence.periodicity}${amount ? `, from ${reais(amount.amount)}` : ''}; bank id ${recurrence.id}`
          : 'Not generated at the bank yet',
        `Attempts: ${table.size}${
          Object.keys(counts).length
            ? ` (${Object.entries(counts)
                .map(([status, n]) => `${n} ${status}`)
                .join(', ')})`
            : ''
        }`,
        latest ? `Latest attempt ${latest.id}: ${latest.status} at ${latest.timestamp}` : 'No attempt yet',
        `Updates: ${state.updates.applied} applied, ${state.updates.duplicates} duplicates, ${state.updates.stale} stale; run ${state.runs}`,
        ...(state.reason ? [`Outcome: ${state.reason}`] : []),
      ].join('\n\n'),
    );
  }

  setHandler(recurrenceStateQuery, () => ({
    ...state,
    attempts: table.list(),
    attemptsByStatus: table.countByStatus(),
  }));
  setHandler(recurrenceAttemptsSignal, (batch) => take(batch.attempts, batch.source));
  setHandler(recurrenceWebhookSignal, (event) => {
    // A webhook may omit the key the receiver routed by; the recurrence id still ties it to this recurrence.
    const attempt = event.resource?.kind === 'collection-attempt' ? event.resource.data : undefined;
    const ours =
      attempt !== undefined &&
      (attempt.external_id === externalId ||
        (state.recurrenceId !== undefined && attempt.recurrence_id === state.recurrenceId));
    if (!attempt || !ours) {
      state.updates.ignored++;
      return;
    }
    state.updates.fromWebhooks++;
    if (patched(confirmedWebhooksPatch)) {
      confirmations.announce(attempt.id, attempt.status, Date.now());
      publish();
    } else {
      take([toRecurrenceAttempt({ ...attempt, external_id: externalId })], 'webhook');
    }
  });

  const isOurs = (attempt: CollectionAttempt) =>
    attempt.external_id === externalId || attempt.recurrence_id === state.recurrenceId;

  /** The attempt as the bank's GET shows it; undefined while the bank does not answer it. */
  async function read(attemptId: string): Promise<CollectionAttempt | undefined> {
    try {
      return await reads.getCollectionAttempt(attemptId);
    } catch (error) {
      if (error instanceof ActivityFailure) return undefined;
      throw error;
    }
  }

  /** Reads every announced attempt whose turn has come and takes what the bank answers. */
  async function confirmDue(): Promise<void> {
    for (const attemptId of confirmations.due(Date.now())) {
      const attempt = await read(attemptId);
      if (attempt && !isOurs(attempt)) {
        confirmations.drop(attemptId);
        state.updates.ignored++;
      } else {
        if (attempt) take([toRecurrenceAttempt(attempt)], 'webhook');
        if (confirmations.settle(attemptId, attempt?.status, Date.now()) === 'expired')
          state.updates.ignored++;
      }
      publish();
    }
  }

  /** Until continue-as-new is due, reads announced attempts as their turns come. */
  async function followUntilContinueAsNew(): Promise<void> {
    while (!continueAsNewDue()) {
      const next = confirmations.nextAt();
      const sooner = () => continueAsNewDue() || (confirmations.nextAt() ?? Infinity) < (next ?? Infinity);
      if (next === undefined) await condition(sooner);
      else if (next > Date.now()) await condition(sooner, next - Date.now());
      await confirmDue();
    }
  }
  setHandler(recurrenceGeneratedUpdate, async () => {
    await condition(() => recurrence !== undefined || failure !== undefined);
    if (!recurrence) throw failure;
    return recurrence;
  });

  if (!recurrence) {
    try {
      recurrence = await bank.generateRecurrence(input.request);
    } catch (error) {
      const cause = error instanceof ActivityFailure ? error.cause : undefined;
      const type = cause instanceof ApplicationFailure && cause.type ? cause.type : 'RecurrenceNotGenerated';
      const message = `the bank did not generate the recurrence: ${cause?.message ?? String(error)}`;
      failure = ApplicationFailure.create({
        type: 'RecurrenceRefused',
        message,
        details: [
          { bankFailure: type, ...(cause instanceof ApplicationFailure ? { details: cause.details } : {}) },
        ],
        nonRetryable: true,
      });
      state.phase = 'refused';
      state.reason = message;
      publish();
      await condition(allHandlersFinished);
      throw failure;
    }
    state.recurrence = recurrence;
    state.recurrenceId = recurrence.id;
    state.status = recurrence.status;
    state.phase = phaseOf(recurrence.status);
  }
  if (ended()) state.reason = `the bank reports the recurrence ${recurrence.status}`;
  publish();

  if (!ended()) {
    await followUntilContinueAsNew();
    await condition(allHandlersFinished);
    await continueAsNew<typeof recurrenceWorkflow>({
      ...input,
      resume: {
        recurrence,
        attempts: table.list(),
        archived: table.archived,
        updates: state.updates,
        runs: state.runs,
        ...(confirmations.ids().length > 0 ? { confirming: confirmations.list() } : {}),
      },
    });
  }

  await condition(allHandlersFinished);
  return {
    outcome: state.phase as RecurrenceOutcome,
    reason: state.reason ?? '',
    recurrence,
    attemptsByStatus: table.countByStatus(),
  };
}
