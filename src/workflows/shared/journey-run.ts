import type { Workflow, SearchAttributeUpdatePair } from '@temporalio/common';
import {
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  setHandler,
  workflowInfo,
  ApplicationFailure,
  setCurrentDetails,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { versionCheckSignal } from '../../contract/temporal.js';
import {
  type KeptReplies,
  type MerchantReply,
  memoKeys,
  failureTypes,
  differingTerms,
  isPlainObject,
  startTermsConflict,
  type StartTerms,
  runLifetimeMs,
} from '../../contract/journeys.js';
import type { Activities } from '../../activities/index.js';
import type { NotificationEvent, NotificationType } from '../../contract/notifications.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';

// What a journey's run says to the outside and hands on: its answers to the merchant's requests and start
// terms, the state it publishes for callers and support (memo, search attributes), the notifications it
// hands to the outbox, and the continue-as-new that hands the journey to its next run.

/**
 * Which Worker Deployment version a continued run starts on (docs/upgrading-workflows.md): a long-lived
 * type's next run starts on the deployment's current version and is pinned there, so the type moves to a new
 * version without replaying any history on it; a short type's next run stays on the version that started the
 * journey.
 */
export type NextRunVersion = 'current' | 'same';

/**
 * The longest a long-lived run waits without a workflow task. Temporal tells a pinned run of a new current
 * version only in a workflow task and wakes no idle run for it, so each such run takes a task at least this
 * often: an old version then drains within a day once its short runs finished.
 */
export const versionCheckIntervalMs = 24 * 60 * 60_000;

/**
 * Answers whether a new Worker Deployment version became current since this run was pinned to its own.
 * Temporal says so in the workflow task that first learns it (`targetWorkerDeploymentVersionChanged`); this
 * watch, begun at the run's start, keeps it for a later task where the run can move, since a run moves only
 * where its state is whole. The version check signal (`bankflow deployments move`) needs no handling beyond
 * its task, which wakes the run.
 */
export function watchForNewVersion(): () => boolean {
  setHandler(versionCheckSignal, () => undefined);
  let seen = false;
  void condition(() => workflowInfo().targetWorkerDeploymentVersionChanged).then(() => {
    seen = true;
  });
  return () => seen || workflowInfo().targetWorkerDeploymentVersionChanged;
}

/**
 * Continues as new with `args`, keeping the memo and search attributes, so callers and support read the same
 * workflow across runs; the next run starts on the version `nextRun` names. The caller reads `args` in the
 * workflow task it continues in, after every handler finished.
 */
export function continueWith<F extends Workflow>(
  nextRun: NextRunVersion,
  ...args: Parameters<F>
): Promise<never> {
  const info = workflowInfo();
  const next = makeContinueAsNewFunc<F>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
    ...(nextRun === 'current' ? { initialVersioningBehavior: 'AUTO_UPGRADE' as const } : {}),
  });
  return next(...args);
}

/**
 * Hands the journey to a fresh run of the same workflow once the run may end (`notifier.runFinished`: every
 * handler finished, every notification with its outbox): the input again, with `resume()` carrying what the
 * run learned. `resume` is read at the hand-over, in the workflow task that checked, so it holds what every
 * message the run accepted did, and no message can come between the check and the continue-as-new.
 */
export async function continueJourneyAsNew<Input extends { resume?: unknown }>(
  input: Input,
  resume: () => NonNullable<Input['resume']>,
  notifier: JourneyNotifier,
  nextRun: NextRunVersion,
): Promise<never> {
  await notifier.runFinished();
  return continueWith<(input: Input) => Promise<unknown>>(nextRun, { ...input, resume: resume() });
}

/**
 * For a long-lived type that keeps something until `done()` holds or `until` (epoch ms, workflow time)
 * passes: waits for either, with a workflow task at least every `versionCheckIntervalMs`, and answers whether
 * `done()` held. At a task that finds a new version current (`newVersion`), the run continues as new onto it
 * once every handler finished, with the arguments `next()` reads then: what every message the run accepted
 * did.
 */
export async function waitOnCurrentVersion<F extends Workflow>(
  done: () => boolean,
  until: number,
  newVersion: () => boolean,
  next: () => Parameters<F>,
): Promise<boolean> {
  while (!done() && Date.now() < until) {
    if (newVersion()) {
      await condition(allHandlersFinished);
      return continueWith<F>('current', ...next());
    }
    await condition(() => done() || newVersion(), Math.min(until - Date.now(), versionCheckIntervalMs));
  }
  return done();
}

/**
 * A merchant's request to a running workflow is a Temporal update: its validator refuses what the journey
 * cannot take at that moment (no history is written), its handler does the work, and a refusal or a bank's
 * "no" reaches the caller as the update's failure. The update id is the caller's idempotency key, so a
 * retried request gets the first answer instead of being carried out twice.
 */

/**
 * A refusal of a merchant's request, thrown by a validator or handler. Its `type` names the kind of refusal
 * where callers may act on it, e.g. `EnrollmentNotAuthorized`; without one it is a plain `RequestRefused`.
 */
export const refusal = (
  message: string,
  type: string = failureTypes.requestRefused,
  details: unknown[] = [],
) => ApplicationFailure.create({ type, message, details, nonRetryable: true });

/** Refuses a request without the assertion it carries; the starter checks its shape before sending it. */
export function requireAssertion(request: { assertion?: unknown } | undefined): void {
  if (typeof request?.assertion !== 'object' || request.assertion === null)
    throw refusal("assertion: required, the object the browser's WebAuthn call returned");
}

/**
 * The answer a workflow gave its start, kept in its memo (`memoKeys.replies`): a start repeated after the
 * workflow ended reads it with no worker running, and continue-as-new carries it to the next run.
 */
export class StartReply<Start> {
  constructor(private reply: MerchantReply<Start> | undefined) {}

  get given(): boolean {
    return this.reply !== undefined;
  }

  set(reply: MerchantReply<Start>): void {
    this.reply = reply;
  }

  /** The replies as the memo and the next run keep them. */
  kept(): KeptReplies<Start> {
    return this.reply ? { start: this.reply } : {};
  }

  /** The start's answer, as its update handler returns it; a refusal is thrown. */
  answer(): Start {
    const reply = this.reply;
    if (!reply) throw refusal('the workflow has not answered its start yet');
    if (!reply.ok) throw refusal(reply.reason, reply.type);
    return reply.value;
  }
}

/**
 * Refuses a start that joins this workflow with other terms than the first start recorded in the memo: the
 * validator of a start update; the caller compares the terms itself to name them.
 */
export function checkStartTerms(requested: StartTerms | undefined, sensitive: readonly string[] = []): void {
  const recorded = workflowInfo().memo?.[memoKeys.terms];
  if (!requested || !isPlainObject(recorded)) return;
  if (differingTerms(recorded, requested, sensitive).length > 0)
    throw refusal(`the workflow was started with other terms`, startTermsConflict);
}

const outbox = internalActivities<Pick<Activities, 'handOffNotification'>>(temporalCallOptions);

/** Where a journey counts the events it emitted: one integer, carried by continue-as-new with the journey. */
export interface NotificationCounter {
  notified?: number;
}

/**
 * A journey's notifications: each state it adopts from the bank's record goes to its resource's outbox, which
 * POSTs it to the merchant (docs/merchant-notifications.md). Each event's id and content are decided here, in
 * workflow code, so a replay, a retried hand-over and a resend all carry the same event; they go to the
 * outbox one after another, in sequence order.
 */
export class JourneyNotifier {
  private handedOver: Promise<void> = Promise.resolve();
  /** Events emitted whose hand-off has not answered yet: while any has not, the run may not end. */
  private inFlight = 0;

  /** `counter` answers where the journey counts its events (read when one is emitted). */
  constructor(private readonly counter: () => NotificationCounter) {}

  /** Emits `type` for `resource`, as the bank's record (`data`, public fields) shows it now. */
  emit(resource: NotificationEvent['resource'], type: NotificationType, data: Record<string, unknown>): void {
    const counter = this.counter();
    const sequence = (counter.notified ?? 0) + 1;
    counter.notified = sequence;
    const event: NotificationEvent = {
      id: `${resource.type}:${resource.id}:${sequence}`,
      type,
      resource,
      sequence,
      occurred_at: new Date().toISOString(),
      data,
    };
    this.handedOver = this.handedOver.then(() => outbox.handOffNotification(event));
    // Counted on a branch of its own: a link in the chain would delay each next hand-off by a step, and so
    // move its command after others the same workflow task makes, which recorded histories would not replay.
    this.inFlight++;
    const answered = () => {
      this.inFlight--;
    };
    void this.handedOver.then(answered, answered);
  }

  /** Resolves once every event emitted is with its outbox, those a handler emits meanwhile included. */
  async handedOverAll(): Promise<void> {
    let awaited: Promise<void>;
    do {
      awaited = this.handedOver;
      await awaited;
    } while (awaited !== this.handedOver);
  }

  /**
   * Whether the run may end or continue as new now: every handler finished and every event is with its
   * outbox.
   */
  mayEnd(): boolean {
    return allHandlersFinished() && this.inFlight === 0;
  }

  /**
   * Resolves once the run may end or continue as new (`mayEnd`), both checked at once. The caller ends the
   * run in the workflow task this resolves in, awaiting nothing else before: a message accepted until then
   * makes the check wait for its handler and for the events it emitted, and none is accepted after it. A
   * failed hand-off rejects.
   */
  async runFinished(): Promise<void> {
    await condition(() => this.mayEnd());
    await this.handedOver;
  }
}

/**
 * What a journey publishes: memo entries the merchant reads, search attributes and current details for
 * support.
 */
export interface JourneyPresentation<Journey> {
  /** The memo entries the merchant reads besides the start's answer (starter/published.ts). */
  memoEntries(journey: Journey): MemoEntry[];
  /** The search attributes support staff find the journey by. */
  searchAttributes(journey: Journey): KeywordValue[];
  /** The paragraphs of the journey's current details in the Temporal UI. */
  details(journey: Journey): string[];
}

/**
 * How the payment and enrollment journeys publish where they stand: in the memo for the merchant, in search
 * attributes and current details for support staff. Each upsert is a history event, so only changes are
 * written.
 */
export class JourneyPublication<Journey, Start> {
  private readonly searchAttributes = new SearchAttributesPublisher();

  constructor(
    private readonly journey: Journey,
    private readonly startReply: StartReply<Start>,
    private readonly presentation: JourneyPresentation<Journey>,
  ) {}

  /** What the merchant reads. */
  toCallers(): void {
    const replies = { key: memoKeys.replies, value: this.startReply.kept() };
    publishToMemo([...this.presentation.memoEntries(this.journey), replies]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  everywhere(): void {
    this.toCallers();
    this.searchAttributes.publish(this.presentation.searchAttributes(this.journey));
    this.details();
  }

  /** What support staff see in the Temporal UI: current details cost the history nothing. */
  details(): void {
    setCurrentDetails(this.presentation.details(this.journey).join('\n\n'));
  }
}

export interface MemoEntry {
  key: string;
  /** Left out of the memo while undefined. */
  value: unknown;
}

/**
 * Upserts the entries whose value differs from what the memo holds: every upsert is an event in the history,
 * so an unchanged value costs nothing. Values are copied, so that later changes to the workflow's objects are
 * seen as changes.
 */
export function publishToMemo(entries: MemoEntry[]): void {
  const published = workflowInfo().memo ?? {};
  const changed = entries.flatMap(({ key, value }) => {
    if (value === undefined) return [];
    const json = JSON.stringify(value);
    return JSON.stringify(published[key]) === json ? [] : [[key, JSON.parse(json) as unknown] as const];
  });
  if (changed.length === 0) return;
  upsertMemo(Object.fromEntries(changed));
}

/** A Keyword attribute's value, or a KeywordList's (an empty list removes the attribute). */
export type KeywordValue = SearchAttributeUpdatePair & { value: string | string[] };

/**
 * Upserts only the search attributes whose value changed since this run last set them: every upsert is an
 * event in the history, and a workflow that re-publishes its state after each unchanged poll would grow it
 * for nothing.
 */
export class SearchAttributesPublisher {
  private readonly published = new Map<string, string>();

  publish(values: KeywordValue[]): void {
    const changed = values.filter(({ key, value }) => this.published.get(key.name) !== JSON.stringify(value));
    if (changed.length === 0) return;
    upsertSearchAttributes(changed);
    for (const { key, value } of changed) this.published.set(key.name, JSON.stringify(value));
  }
}

/**
 * When this run continues as new (epoch ms, workflow time): its start plus the lifetime its start asked for.
 */
export function runDeadline(requestedMs: number | undefined): number {
  return workflowInfo().runStartTime.getTime() + runLifetimeMs(requestedMs);
}
