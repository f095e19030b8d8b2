import type { ReceivedWebhook } from './webhook-events.js';

// What every journey (enrollment, payment, recurrence, boleto cancel) shares with its callers: the failure
// types it ends with, the bank trouble it shows while the bank's reads fail, the terms a start commits it to,
// how it follows the bank, how long one run of a long-lived journey lasts, what it keeps in its memo, and the
// webhooks it heard.

/**
 * The failure types bankflow's workflows end with or refuse a request with, beside the bank's own
 * (bank/vocabulary.ts). Support staff read them in the UI; docs/support.md says what each means and what to
 * do.
 */
export const failureTypes = {
  enrollmentNotAuthorized: 'EnrollmentNotAuthorized',
  paymentRefused: 'PaymentRefused',
  enrollmentRefused: 'EnrollmentRefused',
  recurrenceRefused: 'RecurrenceRefused',
  recurrenceNotGenerated: 'RecurrenceNotGenerated',
  boletoCancellationNotConfirmed: 'BoletoCancellationNotConfirmed',
  startTermsConflict: 'StartTermsConflict',
  requestRefused: 'RequestRefused',
  invalidJobWindow: 'InvalidJobWindow',
  plaintextRefused: 'PlaintextPayloadRefused',
  /**
   * The bank could not be reached within the window a customer waits in; nothing was created for the journey.
   */
  bankUnreachable: 'BankUnreachable',
  /** A bank call's attempt began after its window closed, so it was not sent (activities/failures.ts). */
  bankCallWindowClosed: 'BankCallWindowClosed',
} as const;

/**
 * Why the bank's reads of a journey's record are failing, kept in the journey's state while they do: support
 * filters on it (the `BankflowBankTrouble` search attribute), the merchant reads it in the state, and it
 * clears at the first read the bank answers. A read never ends a journey (docs/reliability.md): this is what
 * it does instead.
 */
export interface BankTrouble {
  /** The failure type of the last failed read: BankUnauthorized, BankUnavailable, BankInvalidResponse, ... */
  type: string;
  /** The HTTP status the bank answered with, when it answered. */
  httpStatus?: number;
  /** When the reads began failing so (workflow time); a read failing another way starts the trouble anew. */
  since: string;
}

/** The type a read is given that failed without a bank answer: its activity timed out. */
export const readTimedOut = 'BankReadTimedOut';

/** What support reads of a journey's failing reads, in its current details in the Temporal UI. */
export const troubleDetail = ({ type, httpStatus, since }: BankTrouble): string =>
  `The bank's reads fail since ${since}: ${type}${httpStatus ? ` (HTTP ${httpStatus})` : ''}; ` +
  'the journey follows the bank on and goes on once it answers';

/**
 * What a start commits the workflow to, by field path (`amountCents`, `counterparty.bank_account.ispb`):
 * recorded in the workflow's memo when it starts, and compared with every later start under the same workflow
 * id. Test knobs (polling, deadlines, history limits) are not terms.
 */
export type StartTerms = Record<string, unknown>;

/**
 * A term the first start recorded and a later one asked otherwise; values are left out for sensitive terms.
 */
export interface TermDifference {
  field: string;
  recorded?: unknown;
  requested?: unknown;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The leaves of `value` by dotted path; arrays are compared whole, undefined members are left out. */
export function flattenTerms(value: Record<string, unknown>, prefix = ''): StartTerms {
  const terms: StartTerms = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    const path = `${prefix}${key}`;
    if (isPlainObject(member)) Object.assign(terms, flattenTerms(member, `${path}.`));
    else terms[path] = member;
  }
  return terms;
}

/** Whether two values of a term say the same. */
export const sameTerm = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isSensitive = (field: string, sensitive: readonly string[]) =>
  sensitive.some((prefix) => field === prefix || field.startsWith(`${prefix}.`));

/**
 * The terms `requested` states otherwise than `recorded`, in field order. `sensitive` names the fields (or
 * their parents) whose values are personal data: their difference is reported without the values.
 */
export function differingTerms(
  recorded: StartTerms,
  requested: StartTerms,
  sensitive: readonly string[] = [],
): TermDifference[] {
  const fields = [...new Set([...Object.keys(recorded), ...Object.keys(requested)])].sort();
  return fields
    .filter((field) => !sameTerm(recorded[field], requested[field]))
    .map((field) =>
      isSensitive(field, sensitive)
        ? { field }
        : { field, recorded: recorded[field], requested: requested[field] },
    );
}

/** The failure type of a start refused for other terms than the first start's. */
export const startTermsConflict = failureTypes.startTermsConflict;

/**
 * How a journey follows the bank between webhooks; tests and the chaos run shorten it, merchants never set
 * it.
 */
export interface PollingSettings {
  /** Silence after which the workflow asks the bank itself, doubled after each unanswered poll. */
  firstPollAfterMs: number;
  maxPollIntervalMs: number;
  /**
   * The longest a wait between polls may be stretched while the poll budget is saturated: the floor of how
   * often the bank's windows still want the record read. Unset, waits are never stretched.
   */
  stretchCeilingMs?: number;
}

/**
 * How many times its last poll's wait (from scheduling to answer, mostly the polls queue's backlog when the
 * budget is saturated) a journey waits before its next poll. With N journeys polling a budget of B reads per
 * second, each settles at about N / B seconds apart and the backlog at about N / this: a tenth of the open
 * journeys.
 */
export const pollStretchFactor = 10;

/**
 * The wait before the next poll: the planned one, stretched to `pollStretchFactor` times the last poll's
 * wait, but never beyond the ceiling (and never below the plan).
 */
export function stretchedPollInterval(plannedMs: number, lastPollWaitMs: number, ceilingMs?: number): number {
  if (ceilingMs === undefined) return plannedMs;
  return Math.max(plannedMs, Math.min(pollStretchFactor * lastPollWaitMs, ceilingMs));
}

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * How long one run of a long-lived workflow (an authorized enrollment, a recurrence) stays open before it
 * continues as new, so that no run is older than the bound and none stays on an old Worker Deployment version
 * longer, even one that never hears of a new one (docs/upgrading-workflows.md). The bound travels in the
 * start input, which continue-as-new carries: a worker's own setting could not reach the workflow without a
 * recorded step, and a value read from the worker would make replay depend on the worker that replays.
 */
export const runLifetime = {
  /** The default, and the most a start may ask for. */
  maxMs: 30 * day,
  /** The least a start may ask for: shorter runs would spend their history on continuing as new. */
  minMs: minute,
};

/** The run lifetime a start asked for, held within the bounds; the default when it asked for none. */
export function runLifetimeMs(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return runLifetime.maxMs;
  return Math.min(Math.max(requested, runLifetime.minMs), runLifetime.maxMs);
}

/**
 * The most webhook keys one run hands to the next. A duplicate delivery comes within the bank's retries,
 * minutes to hours after the first, while the newest keys are kept; a copy older than the newest 500 keys
 * that slipped through still changes nothing, since only the bank's own record moves a journey. 500 keys are
 * about 50 KB of the continue-as-new input.
 */
export const maxCarriedWebhookKeys = 500;

/**
 * The memo keys under which a workflow publishes what its callers read with no worker running: the journey's
 * state, the outcome once there is one, and the answer it gave its start (which a start repeated after the
 * workflow ended reads). Callers read them with `describe()`, which the server answers from committed state;
 * a query could make a worker new to the workflow build it from events no workflow task has committed.
 */
export const memoKeys = {
  state: 'bankflowState',
  outcome: 'bankflowOutcome',
  replies: 'bankflowReplies',
  /**
   * What the start committed the workflow to (above), set by the starter; workflows never
   * change it.
   */
  terms: 'bankflowTerms',
  /** The event an unmatched-webhook workflow keeps, set by the receiver when it starts one. */
  event: 'bankflowEvent',
} as const;

/** An answer as the memo keeps it under `memoKeys.replies`: the start's answer, or why it was refused. */
export type MerchantReply<T = unknown> =
  { ok: true; value: T } | { ok: false; reason: string; type?: string };

export const refused = (reason: string, type?: string): MerchantReply<never> => ({
  ok: false,
  reason,
  ...(type ? { type } : {}),
});
export const answered = <T>(value: T): MerchantReply<T> => ({ ok: true, value });

/** The memo's replies: the start's answer under `start`, carried to the next run by continue-as-new. */
export interface KeptReplies<Start> {
  start?: MerchantReply<Start>;
}

/** What a workflow publishes about the webhooks it heard. */
export interface WebhookCounters {
  webhooksReceived: number;
  duplicateWebhooks: number;
}

/**
 * Webhooks a workflow has taken in, deduplicated by event key: a retried or duplicated delivery changes
 * nothing, also when it arrives after the workflow continued as new, since each run hands its newest keys to
 * the next.
 */
export class EventInbox {
  private readonly seen: Set<string>;

  /** @param carried the keys the previous run kept, oldest first */
  constructor(carried: readonly string[] = []) {
    this.seen = new Set(carried);
  }

  /**
   * Counts the event in `counters` and answers whether it is new, rather than a copy of one already heard.
   */
  isNew(event: ReceivedWebhook, counters: WebhookCounters): boolean {
    const first = this.firstHeard(event.key);
    if (first) counters.webhooksReceived++;
    else counters.duplicateWebhooks++;
    return first;
  }

  /** Takes the key in; answers whether it is heard for the first time. */
  firstHeard(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  /** The newest keys, oldest first, for the next run: a bounded number (maxCarriedWebhookKeys says why). */
  kept(): string[] {
    return [...this.seen].slice(-maxCarriedWebhookKeys);
  }
}
