import type { CollectionAttempt, WebhookCollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import type { Recurrence } from '../../bank/schemas/recurrence.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import { AttemptTable } from './attempt-table.js';
import {
  noArchivedAttempts,
  type AttemptSource,
  type RecurrenceAttempt,
  endedRecurrenceStatuses,
  initialRecurrenceSummary,
  toRecurrenceAttempt,
  type RecurrenceCarry,
  type RecurrenceInput,
  type RecurrenceOutcome,
  type RecurrencePhase,
  type RecurrenceResult,
  type RecurrenceState,
  type RecurrenceSummary,
} from '../../contract/recurrence.js';
import { AttemptConfirmations } from './confirmations.js';
import { EventInbox } from '../../contract/journeys.js';

const isOutcome = (status: string): status is RecurrenceOutcome =>
  (endedRecurrenceStatuses as readonly string[]).includes(status);

const phaseOf = (status: string): RecurrencePhase => (isOutcome(status) ? status : 'active');

/**
 * What a recurrence workflow knows, and every change the bank, the attempts sync and the webhooks make to it:
 * the bank's recurrence, its attempt table, the attempts webhooks announced for the bank's GET to confirm,
 * and the summary the workflow publishes after each change. No clock and no Temporal: times come in as
 * arguments.
 */
export class RecurrenceJourney {
  readonly externalId: string;
  readonly table: AttemptTable;
  readonly confirmations: AttemptConfirmations;
  readonly state: RecurrenceSummary;
  private readonly inbox: EventInbox;
  recurrence: Recurrence | undefined;
  /** The reason of the merchant's cancel, once one came: the run stops following the recurrence and ends. */
  cancelReason: string | undefined;
  /** The merchant notifications emitted so far, across runs (a JourneyNotifier's counter). */
  readonly notifications: { notified?: number };

  constructor(input: RecurrenceInput, maxAttemptsKept: number) {
    const resume = input.resume;
    this.externalId = input.request.external_id;
    this.table = new AttemptTable(
      resume?.attempts ?? [],
      resume?.archived ?? noArchivedAttempts(),
      maxAttemptsKept,
    );
    this.confirmations = new AttemptConfirmations(resume?.confirming);
    this.inbox = new EventInbox(resume?.webhookKeys);
    this.recurrence = resume?.recurrence;
    this.notifications = { notified: resume?.notified };
    this.state = {
      ...initialRecurrenceSummary(this.externalId),
      ...(resume ? { updates: resume.updates, runs: resume.runs + 1 } : {}),
      ...(resume?.bankTrouble ? { bankTrouble: resume.bankTrouble } : {}),
      archived: this.table.archived,
    };
    if (resume) this.follow(resume.recurrence);
  }

  /** Whether the bank collects nothing more: the workflow ends. */
  ended(): boolean {
    return this.state.phase !== 'generating' && this.state.phase !== 'active';
  }

  /** The bank generated the recurrence and answered it as `recurrence`. */
  generated(recurrence: Recurrence): void {
    this.follow(recurrence);
    if (this.ended()) this.state.reason = `the bank reports the recurrence ${recurrence.status}`;
  }

  /** The merchant cancels the recurrence, for `reason`; a second cancel keeps the first reason. */
  cancelRequested(reason: string): void {
    this.cancelReason ??= reason;
  }

  /** Ends the journey for the merchant's cancel: bankflow stops following the recurrence. */
  stop(): void {
    this.state.phase = 'stopped';
    this.state.reason =
      `cancelled by the merchant: ${this.cancelReason ?? ''}. bankflow no longer follows its collection attempts; the bank's ` +
      `API has no call to cancel a recurrence, so its record at the bank keeps the status ${this.state.status ?? 'it had'}`;
  }

  /** The bank refused to generate the recurrence, for `reason`. */
  refused(reason: string): void {
    this.state.phase = 'refused';
    this.state.reason = reason;
  }

  /**
   * Attempts the sync found, or the bank's GET confirmed; answers those now in a new status (or first heard
   * of).
   */
  took(attempts: RecurrenceAttempt[], source: AttemptSource): RecurrenceAttempt[] {
    const { updates } = this.state;
    const moved: RecurrenceAttempt[] = [];
    this.table.applyAll(attempts, source).forEach((outcome, index) => {
      if (outcome === 'moved' || outcome === 'applied') updates.applied++;
      else if (outcome === 'duplicate') updates.duplicates++;
      else updates.stale++;
      if (outcome === 'moved') moved.push(attempts[index]!);
    });
    if (source === 'sync') updates.fromSync += attempts.length;
    return moved;
  }

  /**
   * A `recurrence_collection_attempt` webhook: a hint that announces the attempt it names for the bank's GET
   * to confirm, never taken as data. Answers false for a webhook about another recurrence, only counted as
   * ignored; a delivery of one already heard is only counted as a duplicate.
   */
  heardWebhook(event: ReceivedWebhook, now: number): boolean {
    if (!this.inbox.firstHeard(event.key)) {
      this.state.updates.duplicateWebhooks = (this.state.updates.duplicateWebhooks ?? 0) + 1;
      return true;
    }
    const attempt = event.resource?.kind === 'collection-attempt' ? event.resource.data : undefined;
    if (!attempt || !this.owns(attempt)) {
      this.state.updates.ignored++;
      return false;
    }
    this.state.updates.fromWebhooks++;
    this.confirmations.announce(attempt.id, attempt.status, now);
    return true;
  }

  /**
   * The bank's GET of an announced attempt answered `attempt` (undefined: none, or not known yet); as `took`.
   */
  read(attemptId: string, attempt: CollectionAttempt | undefined, now: number): RecurrenceAttempt[] {
    if (attempt && !this.owns(attempt)) {
      this.confirmations.drop(attemptId);
      this.state.updates.ignored++;
      return [];
    }
    const moved = attempt ? this.took([toRecurrenceAttempt(attempt)], 'webhook') : [];
    if (this.confirmations.settle(attemptId, attempt?.status, now) === 'expired')
      this.state.updates.ignored++;
    return moved;
  }

  /**
   * The state without its attempt table, as the workflow publishes it: up to `maxAttemptsKept` attempts are
   * too many to rewrite into the history at every change.
   */
  summary(): RecurrenceSummary {
    this.state.attemptsByStatus = this.table.countByStatus();
    const awaiting = this.confirmations.ids();
    if (awaiting.length > 0) this.state.awaitingConfirmation = awaiting;
    else delete this.state.awaitingConfirmation;
    return this.state;
  }

  /** The state with its attempts, as the query answers it. */
  query(): RecurrenceState {
    return { ...this.state, attempts: this.table.list(), attemptsByStatus: this.table.countByStatus() };
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
      webhookKeys: this.inbox.kept(),
      ...(this.notifications.notified ? { notified: this.notifications.notified } : {}),
      ...(this.state.bankTrouble ? { bankTrouble: this.state.bankTrouble } : {}),
    };
  }

  result(recurrence: Recurrence): RecurrenceResult {
    return {
      outcome: this.state.phase as RecurrenceResult['outcome'],
      reason: this.state.reason ?? '',
      recurrence,
      attemptsByStatus: this.table.countByStatus(),
    };
  }

  private follow(recurrence: Recurrence): void {
    this.recurrence = recurrence;
    Object.assign(this.state, {
      phase: phaseOf(recurrence.status),
      recurrenceId: recurrence.id,
      status: recurrence.status,
      recurrence,
    });
  }

  /**
   * A webhook may omit the key the receiver routed by; the recurrence id still ties it to this recurrence.
   */
  private owns(attempt: CollectionAttempt | WebhookCollectionAttempt): boolean {
    const { recurrenceId } = this.state;
    return (
      attempt.external_id === this.externalId ||
      (recurrenceId !== undefined && attempt.recurrence_id === recurrenceId)
    );
  }
}
