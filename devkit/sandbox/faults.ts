import { z } from 'zod';
import { biometricPaymentStatuses } from '../../src/bank/schemas/biometric-payment.js';
import { boletoStatuses } from '../../src/bank/schemas/boleto.js';
import { collectionAttemptStatuses } from '../../src/bank/schemas/collection-attempt.js';
import { enrollmentStatuses } from '../../src/bank/schemas/enrollment.js';
import { recurrenceStatuses } from '../../src/bank/schemas/recurrence.js';
import { refundStatuses } from '../../src/bank/schemas/refund.js';
import { transferStatuses } from '../../src/bank/schemas/transfer.js';
import { alterAnswer } from './answer-alterations.js';
import { SeededRandom } from './seed/random.js';

/** The statuses a `fail_next` rule answers with: the bank's refusals and its failures. */
export const faultStatuses = [401, 403, 404, 409, 422, 429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof faultStatuses)[number];

/** Every status the spec lists for any record: an `unknown_status` alteration must be none of them. */
const listedStatuses = new Set<string>([
  ...biometricPaymentStatuses,
  ...enrollmentStatuses,
  ...collectionAttemptStatuses,
  ...recurrenceStatuses,
  ...boletoStatuses,
  ...refundStatuses,
  ...transferStatuses,
]);

/**
 * Which calls a rule applies to, and how long it lasts: `count` matching calls, or `for_ms` from when it is
 * set.
 */
const ruleScope = {
  /** Matches request paths starting with this prefix; any path when absent. */
  path_prefix: z.string().startsWith('/').optional(),
  /** How many matching calls the rule takes before it is spent. */
  count: z.number().int().positive().optional(),
  /**
   * How long the rule takes every matching call, from when it is set (a credential rotation: 401 for 2
   * minutes).
   */
  for_ms: z.number().int().positive().optional(),
};

function exactlyOneSpan(rule: { count?: number; for_ms?: number }, ctx: z.RefinementCtx): void {
  if (rule.count === undefined && rule.for_ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['count'],
      message: 'required: how many matching calls (count) or for how long in ms (for_ms) the rule lasts',
    });
  } else if (rule.count !== undefined && rule.for_ms !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['for_ms'],
      message: 'a rule lasts count calls or for_ms milliseconds: give one of them, not both',
    });
  }
}

export const faultRuleSchema = z
  .strictObject({
    /** e.g. `PUT`; any method when absent. */
    method: z.string().toUpperCase().optional(),
    ...ruleScope,
    status: z.literal(faultStatuses, { error: `must be one of ${faultStatuses.join(', ')}` }).default(500),
  })
  .superRefine(exactlyOneSpan);
export type FaultRule = z.infer<typeof faultRuleSchema>;

export const alterationModes = [
  'unknown_status',
  'unknown_member',
  'missing_member',
  'malformed_body',
] as const;
export type AlterationMode = (typeof alterationModes)[number];

const alterationScope = {
  /** Reads by default; `POST` or `PUT` alters the answers to those writes instead. */
  method: z.string().toUpperCase().default('GET'),
  ...ruleScope,
};

/**
 * Changes the answers the sandbox gives, never its records: each record of a 2xx answer (`data`, or every
 * item of a list's `data`) as a bank whose schema drifted would send it, or the whole body cut short.
 */
export const alterationRuleSchema = z
  .discriminatedUnion(
    'mode',
    [
      z.strictObject({
        ...alterationScope,
        mode: z.literal('unknown_status'),
        /** Replaces each record's `status`. */
        status: z
          .string()
          .min(1)
          .max(64)
          .refine((status) => !listedStatuses.has(status), {
            error: 'must be a status the spec does not list, e.g. under_review',
          })
          .default('under_review'),
      }),
      z.strictObject({
        ...alterationScope,
        mode: z.literal('unknown_member'),
        /** Added to each record with `value`. */
        member: z.string().min(1).default('risk_score'),
        value: z.json().default(0.5),
        /** Also added to every object inside the record (its amount, its account, ...). */
        nested: z.boolean().default(false),
      }),
      z.strictObject({
        ...alterationScope,
        mode: z.literal('missing_member'),
        /** Removed from each record, e.g. `end_to_end_id`, or a required one such as `updated_at`. */
        member: z.string({ error: 'required: the member to remove, e.g. updated_at' }).min(1),
      }),
      z.strictObject({ ...alterationScope, mode: z.literal('malformed_body') }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union' ? `must be one of ${alterationModes.join(', ')}` : undefined,
    },
  )
  .superRefine(exactlyOneSpan);
export type AlterationRule = z.infer<typeof alterationRuleSchema>;

/** Rules added to the current settings without changing the rest (`POST /sandbox/faults/rules`). */
export const addedRulesSchema = z.strictObject({
  fail_next: z.array(faultRuleSchema).default([]),
  alter_next: z.array(alterationRuleSchema).default([]),
});
export type AddedRules = z.infer<typeof addedRulesSchema>;

const rate = z.number().min(0).max(1);

export const faultSettingsSchema = z.strictObject({
  seed: z.number().int().nonnegative().optional(),
  /** Share of bank calls answered 500 INTEGRATION_ERROR. */
  error_rate: rate.default(0),
  /** Share of bank calls answered 429 with Retry-After. */
  rate_limit_rate: rate.default(0),
  retry_after_seconds: z.number().int().nonnegative().default(1),
  /** Added to every bank call. */
  latency_ms: z.number().int().nonnegative().default(0),
  /** Share of bank calls that get `latency_spike_ms` on top. */
  latency_spike_rate: rate.default(0),
  latency_spike_ms: z.number().int().nonnegative().default(0),
  /** Calls answered with a chosen status, for a count of calls or a while. */
  fail_next: z.array(faultRuleSchema).default([]),
  /** Answers altered as a drifted schema would send them, for a count of answers or a while. */
  alter_next: z.array(alterationRuleSchema).default([]),
  /** Share of webhooks never sent (recorded as dropped). */
  webhook_drop_rate: rate.default(0),
  /** Share of webhooks sent twice. */
  webhook_duplicate_rate: rate.default(0),
  /** Share of webhooks held back and sent after the next event. */
  webhook_reorder_rate: rate.default(0),
  /** A held-back webhook goes out after this long even when no next event comes. */
  webhook_reorder_max_hold_ms: z.number().int().nonnegative().default(1_000),
  /**
   * Share of webhooks delayed by `webhook_delay_ms` plus up to `webhook_delay_jitter_ms` (every one by
   * default).
   */
  webhook_delay_rate: rate.default(1),
  webhook_delay_ms: z.number().int().nonnegative().default(0),
  webhook_delay_jitter_ms: z.number().int().nonnegative().default(0),
  /**
   * Share of webhooks whose `ref_id` and `data.id` name another resource: one of the same category the bank
   * announced before, or an unknown uuid when there is none.
   */
  webhook_foreign_id_rate: rate.default(0),
  /**
   * How far the bank's reads lag behind its writes: GETs and lists of enrollments, payments and collection
   * attempts (and the boleto a cancel answers with) show each record as it was this long ago, while its
   * webhooks go out at once.
   */
  get_lag_ms: z.number().int().nonnegative().default(0),
});
export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export type FaultDecision =
  | { kind: 'pass'; delayMs: number }
  | { kind: 'error'; delayMs: number; status: FaultStatus; retryAfterSeconds?: number };

/** What happens to one published webhook. */
export interface WebhookFaultDecision {
  dropped: boolean;
  duplicated: boolean;
  reordered: boolean;
  delay_ms: number;
  /** Set when the event is sent naming another resource; a number in [0, 1) that picks which. */
  foreign_pick: number | null;
}

const zeroCounts = () => ({
  errors: 0,
  rateLimited: 0,
  delayed: 0,
  latencySpikes: 0,
  ruleFailures: 0,
  answersAltered: 0,
  webhooksDropped: 0,
  webhooksDuplicated: 0,
  webhooksReordered: 0,
  webhooksDelayed: 0,
  webhooksForeignIds: 0,
});

/**
 * Webhook faults draw from a stream of their own, so how many bank calls happen between two events (which
 * depends on timing) cannot change which events are dropped, duplicated, reordered or delayed.
 */
const webhookStream = (seed: number) => new SeededRandom((seed ^ 0x9e3779b9) >>> 0);

type Rule = FaultRule | AlterationRule;

const matches = (rule: Rule, method: string, path: string) =>
  (!rule.method || rule.method === method) && (!rule.path_prefix || path.startsWith(rule.path_prefix));

/**
 * Decides, reproducibly from a seed, which bank calls and webhooks fail or slow down. Counts what it
 * injected.
 */
export class FaultInjector {
  private settings: FaultSettings;
  private random: SeededRandom;
  private webhookRandom: SeededRandom;
  /** When each `for_ms` rule ends (epoch ms), counted from when it was set. */
  private readonly windowEnds = new WeakMap<Rule, number>();
  readonly injected = zeroCounts();

  /** `initial` applies from the start and again after every reset. */
  constructor(
    seed: number,
    private readonly initial: Partial<FaultSettings> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.settings = faultSettingsSchema.parse({ ...initial, seed });
    this.openWindows([...this.settings.fail_next, ...this.settings.alter_next]);
    this.random = new SeededRandom(seed);
    this.webhookRandom = webhookStream(seed);
  }

  configure(settings: FaultSettings): void {
    this.settings = settings;
    this.openWindows([...settings.fail_next, ...settings.alter_next]);
    if (settings.seed !== undefined) {
      this.random = new SeededRandom(settings.seed);
      this.webhookRandom = webhookStream(settings.seed);
    }
  }

  /** Adds rules after the current ones, leaving every other setting and the seeded streams as they are. */
  add(rules: AddedRules): void {
    this.settings.fail_next.push(...rules.fail_next);
    this.settings.alter_next.push(...rules.alter_next);
    this.openWindows([...rules.fail_next, ...rules.alter_next]);
  }

  current(): FaultSettings {
    return this.settings;
  }

  reset(seed: number): void {
    this.configure(faultSettingsSchema.parse({ ...this.initial, seed }));
    Object.assign(this.injected, zeroCounts());
  }

  private openWindows(rules: Rule[]): void {
    for (const rule of rules) {
      if (rule.for_ms !== undefined) this.windowEnds.set(rule, this.now() + rule.for_ms);
    }
  }

  private live(rule: Rule): boolean {
    if (rule.for_ms !== undefined) return this.now() < (this.windowEnds.get(rule) ?? 0);
    return (rule.count ?? 0) > 0;
  }

  private spend(rule: Rule): void {
    if (rule.count !== undefined) rule.count--;
  }

  decide(method: string, path: string): FaultDecision {
    const s = this.settings;
    let delayMs = s.latency_ms;
    if (s.latency_spike_rate > 0 && this.random.chance(s.latency_spike_rate)) {
      delayMs += s.latency_spike_ms;
      this.injected.latencySpikes++;
    }
    if (delayMs > 0) this.injected.delayed++;

    const rule = s.fail_next.find((candidate) => this.live(candidate) && matches(candidate, method, path));
    if (rule) {
      this.spend(rule);
      this.injected.ruleFailures++;
      return { kind: 'error', delayMs, status: rule.status, retryAfterSeconds: s.retry_after_seconds };
    }
    if (s.error_rate > 0 && this.random.chance(s.error_rate)) {
      this.injected.errors++;
      return { kind: 'error', delayMs, status: 500 };
    }
    if (s.rate_limit_rate > 0 && this.random.chance(s.rate_limit_rate)) {
      this.injected.rateLimited++;
      return { kind: 'error', delayMs, status: 429, retryAfterSeconds: s.retry_after_seconds };
    }
    return { kind: 'pass', delayMs };
  }

  /**
   * The 2xx JSON `body` the bank sends for a call, as every live `alter_next` rule matching it changes it; a
   * rule is spent only by an answer it changed (a record without a status takes no `unknown_status`).
   */
  alter(method: string, path: string, body: string): string {
    const rules = this.settings.alter_next.filter((rule) => this.live(rule) && matches(rule, method, path));
    if (rules.length === 0) return body;
    const altered = alterAnswer(body, rules);
    for (const rule of altered.applied) this.spend(rule);
    if (altered.applied.length > 0) this.injected.answersAltered++;
    return altered.body;
  }

  decideWebhook(): WebhookFaultDecision {
    const s = this.settings;
    const random = this.webhookRandom;
    // Every event takes the same seven draws whatever the rates, so one rate never shifts another's picks.
    const dropped = random.chance(s.webhook_drop_rate);
    const duplicated = random.chance(s.webhook_duplicate_rate);
    const reordered = random.chance(s.webhook_reorder_rate);
    const delayed = random.chance(s.webhook_delay_rate);
    const delayMs = s.webhook_delay_ms + random.int(0, s.webhook_delay_jitter_ms);
    const foreign = random.chance(s.webhook_foreign_id_rate);
    const pick = random.next();
    if (dropped) {
      this.injected.webhooksDropped++;
      return { dropped, duplicated: false, reordered: false, delay_ms: 0, foreign_pick: null };
    }
    if (duplicated) this.injected.webhooksDuplicated++;
    if (reordered) this.injected.webhooksReordered++;
    if (foreign) this.injected.webhooksForeignIds++;
    const delay_ms = delayed ? delayMs : 0;
    if (delay_ms > 0) this.injected.webhooksDelayed++;
    return { dropped, duplicated, reordered, delay_ms, foreign_pick: foreign ? pick : null };
  }
}
