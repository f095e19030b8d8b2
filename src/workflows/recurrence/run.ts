import { setCurrentDetails, type ApplicationFailure } from '@temporalio/workflow';
import type { Recurrence } from '../../bank/schemas/recurrence.js';
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
import { currentDetails } from './current-details.js';
import {
  endedRecurrenceStatuses,
  initialRecurrenceSummary,
  type RecurrenceCarry,
  type RecurrenceInput,
  type RecurrenceOutcome,
  type RecurrencePhase,
  type RecurrenceResult,
  type RecurrenceState,
  type RecurrenceSummary,
} from './definitions.js';

const isOutcome = (status: string): status is RecurrenceOutcome =>
  (endedRecurrenceStatuses as readonly string[]).includes(status);

function phaseOf(status: string): RecurrencePhase {
  return isOutcome(status) ? status : 'active';
}

/**
 * What one run of a recurrence workflow knows: the bank's recurrence, its attempt table, the attempts webhooks
 * announced, and the summary published at every change to the memo, the search attributes and the current details.
 */
export class RecurrenceRun {
  readonly externalId: string;
  readonly table: AttemptTable;
  readonly confirmations: AttemptConfirmations;
  readonly state: RecurrenceSummary;
  recurrence: Recurrence | undefined;
  /** Why the bank did not generate the recurrence, once it refused. */
  failure: ApplicationFailure | undefined;
  private readonly searchAttributesPublisher = new SearchAttributesPublisher();

  constructor(input: RecurrenceInput, maxAttemptsKept: number) {
    const resume = input.resume;
    this.externalId = input.request.external_id;
    this.table = new AttemptTable(
      resume?.attempts ?? [],
      resume?.archived ?? noArchivedAttempts(),
      maxAttemptsKept,
    );
    this.confirmations = new AttemptConfirmations(resume?.confirming);
    const recurrence = resume?.recurrence;
    this.recurrence = recurrence;
    this.state = {
      ...initialRecurrenceSummary(this.externalId),
      ...(recurrence
        ? {
            phase: phaseOf(recurrence.status),
            recurrenceId: recurrence.id,
            status: recurrence.status,
            recurrence,
          }
        : {}),
      archived: this.table.archived,
      ...(resume ? { updates: resume.updates, runs: resume.runs + 1 } : {}),
    };
  }

  ended(): boolean {
    return this.state.phase !== 'generating' && this.state.phase !== 'active';
  }

  /** The state with its attempts, as the query answers it. */
  query(): RecurrenceState {
    return { ...this.state, attempts: this.table.list(), attemptsByStatus: this.table.countByStatus() };
  }

  take(attempts: RecurrenceAttempt[], source: AttemptSource): void {
    const { updates } = this.state;
    for (const outcome of this.table.applyAll(attempts, source)) {
      if (outcome === 'applied') updates.applied++;
      else if (outcome === 'duplicate') updates.duplicates++;
      else updates.stale++;
    }
    if (source === 'sync') updates.fromSync += attempts.length;
    this.publish();
  }

  publish(): void {
    const { state } = this;
    state.attemptsByStatus = this.table.countByStatus();
    const awaiting = this.confirmations.ids();
    if (awaiting.length > 0) state.awaitingConfirmation = awaiting;
    else delete state.awaitingConfirmation;
    publishToMemo([{ key: memoKeys.state, value: state }]);
    this.searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.status ?? state.phase },
      ...(state.recurrenceId ? [{ key: searchAttributes.recurrenceId, value: state.recurrenceId }] : []),
    ]);
    setCurrentDetails(currentDetails(this));
  }

  /** The bank generated the recurrence and answered it as `recurrence`. */
  generated(recurrence: Recurrence): void {
    this.recurrence = recurrence;
    this.state.recurrence = recurrence;
    this.state.recurrenceId = recurrence.id;
    this.state.status = recurrence.status;
    this.state.phase = phaseOf(recurrence.status);
  }

  /** The bank refused to generate the recurrence. */
  refused(failure: ApplicationFailure): void {
    this.failure = failure;
    this.state.phase = 'refused';
    this.state.reason = failure.message;
    this.publish();
  }

  /** What continue-as-new carries into the next run. */
  carry(recurrence: Recurrence): RecurrenceCarry {
    return {
      recurrence,
      attempts: this.table.list(),
      archived: this.table.archived,
      updates: this.state.updates,
      runs: this.state.runs,
      ...(this.confirmations.ids().length > 0 ? { confirming: this.confirmations.list() } : {}),
    };
  }

  result(recurrence: Recurrence): RecurrenceResult {
    return {
      outcome: this.state.phase as RecurrenceOutcome,
      reason: this.state.reason ?? '',
      recurrence,
      attemptsByStatus: this.table.countByStatus(),
    };
  }
}
