import {
  condition,
  workflowInfo,
  CancellationScope,
  sleep,
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  log,
  metricMeter,
  TimeoutFailure,
} from '@temporalio/workflow';
import {
  type PollingSettings,
  stretchedPollInterval,
  readTimedOut,
  type BankTrouble,
  failureTypes,
} from '../../contract/journeys.js';
import type { PollTrigger } from '../../contract/temporal.js';
import { RetryState } from '@temporalio/common';

// How a journey follows the bank: it waits for a webhook's hint or its poll timer, reads the bank's record
// within the poll budget, keeps each hint until a read answers it, and while the bank's reads fail keeps
// reading at a capped backoff: a read never ends a journey.

/** A stretched wait stays within the consent window: a customer may be looking at the payment. */
export const defaultPolling: PollingSettings = {
  firstPollAfterMs: 20_000,
  maxPollIntervalMs: 120_000,
  stretchCeilingMs: 300_000,
};

/**
 * After a hint the bank's GET did not confirm yet, the bank is asked again this soon, doubling from there: a
 * real bank's reads lag its event stream by moments, not by a polling interval.
 */
const hintRecheckMs = 1_000;

/**
 * The webhooks that asked a workflow to read the bank: whether one is still unanswered, and when a read
 * answers them.
 */
export interface Hints {
  /** A hint heard since the bank was last asked names something its record does not show yet. */
  pending(): boolean;
  /** The bank is being asked now: this read answers every hint heard so far. */
  asked(): void;
}

/** How a wait for the bank ended. */
export type FollowEnd = 'done' | 'deadline' | 'history-full' | 'new-version';

/**
 * Follows the bank until `done()` holds or the deadline passes. A hint (a webhook) sends the workflow to the
 * bank at once, since only the bank's own record counts, and again soon after if the record did not show it
 * yet; after a silence it polls with exponential backoff, so a lost webhook delays the flow but never strands
 * it. The bank is asked one last time at the deadline. With `historyBound`, the wait also ends once the run's
 * history reaches it, whatever filled it (updates and signals wake the wait), for the caller to continue as
 * new. A `timer` with a pace stretches the waits while polls wait long for the poll budget (`PollPace`,
 * below); a hint's read never waits for a timer. With `newVersion`, the wait ends at the workflow task that
 * finds a new version current (after the read a hint or a timer asked for in it), for the caller to continue
 * as new onto it (journey-run.ts).
 */
export async function followBank(options: {
  done: () => boolean;
  deadline: number;
  /** Reads the bank; `trigger` says whether a hint or a timer (or the deadline) asked. */
  poll: (trigger: PollTrigger) => Promise<void>;
  polling: PollingSettings;
  /** A pending hint makes the workflow ask the bank now. */
  hints?: Hints;
  historyBound?: number;
  newVersion?: () => boolean;
  /** Keeps one poll timer across waits (`PollTimer`, below); without it each wait has a timer of its own. */
  timer?: PollTimer;
  /**
   * While the bank's reads fail (`readBank`, below), the bank is asked again at this backoff rather than
   * at a sparse wait's, so a journey that waits days between reads goes on soon after the bank answers again.
   */
  trouble?: { active: () => boolean; polling: PollingSettings };
}): Promise<FollowEnd> {
  const { done, poll, polling, hints, timer, trouble } = options;
  const newVersion = options.newVersion ?? (() => false);
  const pace = timer?.pace;
  let troubleInterval = trouble?.polling.firstPollAfterMs ?? Infinity;
  // A run continued as new in trouble asks at the trouble's pace from its first wait, not after a day.
  let interval = Math.min(polling.firstPollAfterMs, trouble?.active() ? troubleInterval : Infinity);
  while (!done()) {
    if (options.historyBound !== undefined && historyFull(options.historyBound)) return 'history-full';
    if (newVersion()) return 'new-version';
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      await poll('timer');
      return done() ? 'done' : 'deadline';
    }
    // Whatever arrives (an update, a signal) may fill the history: each task that does ends the wait.
    const full = () => options.historyBound !== undefined && historyFull(options.historyBound);
    const ready = () => done() || newVersion() || full() || (hints?.pending() ?? false);
    const wait = Math.min(pace ? pace.next(interval, polling.stretchCeilingMs) : interval, remaining);
    const fellDue = timer ? await timer.wait(Date.now() + wait, ready) : !(await condition(ready, wait));
    if (done()) return 'done';
    if (!fellDue && full()) continue;
    // Woken by a new version alone, it hands over with no read; a due poll or a hint is answered first.
    if (!fellDue && newVersion() && !(hints?.pending() ?? false)) continue;
    // Marked before the read: a hint that arrives while it is under way stays pending, the answer may predate
    // it.
    hints?.asked();
    await poll(fellDue ? 'timer' : 'hint');
    interval = fellDue
      ? Math.min(interval * 2, polling.maxPollIntervalMs)
      : Math.min(hintRecheckMs, polling.firstPollAfterMs);
    if (trouble?.active()) {
      interval = Math.min(interval, troubleInterval);
      troubleInterval = Math.min(troubleInterval * 2, trouble.polling.maxPollIntervalMs);
    } else if (trouble) troubleInterval = trouble.polling.firstPollAfterMs;
  }
  return 'done';
}

/**
 * Whether the run should hand over to a new one: its history reached `bound` events (a poll cycle adds about
 * a dozen, so callers leave that much headroom below their stated bound), or the server suggests it.
 */
export function historyFull(bound: number): boolean {
  const info = workflowInfo();
  return info.historyLength >= bound || info.continueAsNewSuggested;
}

/**
 * How long the journey's last poll took from scheduling to answer, in workflow time: with the poll budget
 * saturated that is mostly the polls queue's backlog, which grows with the open journeys, so each of them
 * polling less often as it grows keeps the budget's backlog a small part of them, with no count of them
 * shared anywhere.
 */
export class PollPace {
  private lastWaitMs = 0;

  /** Runs `read`, keeping how long it took. */
  async measure<T>(read: () => Promise<T>): Promise<T> {
    const askedAt = Date.now();
    try {
      return await read();
    } finally {
      this.lastWaitMs = Date.now() - askedAt;
    }
  }

  /** The wait before the next poll, `plannedMs` stretched by the last poll's wait up to `ceilingMs`. */
  next(plannedMs: number, ceilingMs: number | undefined): number {
    return stretchedPollInterval(plannedMs, this.lastWaitMs, ceilingMs);
  }
}

interface PendingPoll {
  at: number;
  fellDue: boolean;
  scope: CancellationScope;
}

/**
 * The one timer after which a workflow asks the bank unprompted. Starting and cancelling a timer are an event
 * each in the history, so the timer is kept across hints and steps rather than cancelled whenever the wait
 * ends early: a later wait takes it over when it falls due no later than that wait wants, and a run that ends
 * while it is pending records nothing more. With a `pace`, the waits it times stretch while polls wait long
 * for the poll budget (`PollPace`, below).
 */
export class PollTimer {
  private pending?: PendingPoll;

  constructor(readonly pace?: PollPace) {}

  /**
   * Waits until `ready()` holds or a poll falls due, at `at` or sooner; answers whether the poll fell due.
   */
  async wait(at: number, ready: () => boolean): Promise<boolean> {
    if (this.pending && this.pending.at > at) {
      this.pending.scope.cancel();
      this.pending = undefined;
    }
    const pending = (this.pending ??= this.start(at));
    await condition(() => ready() || pending.fellDue);
    if (!pending.fellDue) return false;
    this.pending = undefined;
    return true;
  }

  private start(at: number): PendingPoll {
    const pending: PendingPoll = { at, fellDue: false, scope: new CancellationScope() };
    void pending.scope
      .run(() => sleep(Math.max(1, at - Date.now())))
      .then(
        () => {
          pending.fellDue = true;
        },
        // Cancelled: a wait wanted a sooner poll and started its own timer.
        () => undefined,
      );
    return pending;
  }
}

/**
 * The webhooks that asked a journey to read the bank, kept across its waits until a read answers them. A hint
 * heard in the workflow task that ends one wait (a settlement webhook arriving with the authorize's answer,
 * when the worker is behind) sends the next wait to the bank at once rather than leaving it to the next poll,
 * 20 s later. A hint whose step the bank's record already shows asks nothing.
 */
export class HintLedger<Step> {
  private unasked: Step[] = [];

  /** @param stillAhead whether the bank's record, as the journey holds it now, does not show `step` yet */
  constructor(private readonly stillAhead: (step: Step) => boolean) {}

  heard(step: Step): void {
    this.unasked.push(step);
  }

  /**
   * The hints one wait asks the bank about. While `heldWhile()` holds (a call whose answer is the bank's
   * record is under way) they wait for that answer: asking meanwhile would depend on whether the answer or
   * the hint is taken first in a workflow task holding both, an order a traced worker's interceptors change,
   * and so on which worker replays the history.
   */
  forWait(heldWhile: () => boolean = () => false): Hints {
    return {
      pending: () => !heldWhile() && this.unasked.some(this.stillAhead),
      asked: () => {
        this.unasked = [];
      },
    };
  }
}

/** Where a journey keeps its read trouble: carried through continue-as-new with the rest of its state. */
export interface TroubleHolder {
  bankTrouble?: BankTrouble;
}

/** The failure type and HTTP status of a failed read's cause (activities/failures.ts puts them there). */
function describeFailure(cause: Error | undefined): Pick<BankTrouble, 'type' | 'httpStatus'> {
  if (cause instanceof ApplicationFailure) {
    const [first] = (cause.details ?? []) as Array<{ status?: unknown } | undefined>;
    const httpStatus = typeof first?.status === 'number' ? first.status : undefined;
    return { type: cause.type ?? 'Error', ...(httpStatus === undefined ? {} : { httpStatus }) };
  }
  // Retries that ran out of time: the last attempt's failure says why, when there was one.
  if (cause instanceof TimeoutFailure)
    return cause.cause ? describeFailure(cause.cause) : { type: readTimedOut };
  return { type: cause?.name ?? 'Error' };
}

/**
 * Reads the bank for a journey. The bank's answer is the truth, but a failed or strange read is not: a
 * refusal of the credentials during a rotation, an outage, a body bankflow cannot read. Such a read answers
 * undefined and the journey follows the bank on at its usual, capped backoff; the trouble is recorded in
 * `holder` and shown (`changed`, once per change of condition), logged and counted the same, and it clears by
 * itself at the next read the bank answers, so fixing a credential needs no reset. Cancellation and bugs are
 * rethrown.
 */
export async function readBank<T>(
  holder: TroubleHolder,
  read: () => Promise<T>,
  changed: () => void,
): Promise<T | undefined> {
  let answer: T;
  try {
    answer = await read();
  } catch (error) {
    if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
    if (troubled(holder, error)) changed();
    return undefined;
  }
  if (holder.bankTrouble) {
    const { type, since } = holder.bankTrouble;
    log.info('the bank answers reads again', { type, since, workflowId: workflowInfo().workflowId });
    delete holder.bankTrouble;
    changed();
  }
  return answer;
}

/**
 * Records a failed read; answers whether the condition changed (a read failing as the last one did does not).
 */
function troubled(holder: TroubleHolder, error: ActivityFailure): boolean {
  const failure = describeFailure(error.cause);
  const current = holder.bankTrouble;
  if (current && current.type === failure.type && current.httpStatus === failure.httpStatus) return false;
  holder.bankTrouble = { ...failure, since: new Date().toISOString() };
  log.warn('the bank fails reads of a journey; it is followed on and goes on once the bank answers', {
    ...failure,
    workflowId: workflowInfo().workflowId,
    workflowType: workflowInfo().workflowType,
  });
  metricMeter
    .createCounter(
      'bankflow_bank_read_trouble_total',
      '1',
      'Journeys whose bank reads began failing, by type',
    )
    .add(1, { type: failure.type, workflow: workflowInfo().workflowType });
  return true;
}

/** The bank's refusal carried by a failed activity: its failure type (e.g. BankValidation) and message. */
export interface BankRefusal {
  type: string;
  message: string;
  details: unknown[];
}

/**
 * Reads a failed activity as a bank refusal when the bank answered with a final "no" (validation, conflict,
 * not found). Anything else (retries exhausted, cancellation, a bug) is not a refusal and is rethrown.
 */
export function bankRefusal(error: unknown, types: readonly string[]): BankRefusal {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.type && types.includes(cause.type)) {
    return { type: cause.type, message: cause.message, details: [...(cause.details ?? [])] };
  }
  throw error;
}

/** Refusals a merchant can act on by sending something else (another assertion, another attestation). */
export const correctableRefusals = ['BankValidation', 'BankRequestRejected', 'BankNotFound'] as const;

/**
 * Whether a bounded bank call (boundedBy) failed because its window closed: Temporal stopped retrying it at
 * the deadline (its retry state is TIMEOUT, whether an attempt timed out or the next one would start too
 * late), or its last attempt began too late to be sent.
 */
export function windowClosed(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  const { cause } = error;
  return (
    error.retryState === RetryState.TIMEOUT ||
    (cause instanceof ApplicationFailure && cause.type === failureTypes.bankCallWindowClosed)
  );
}
