import { z } from 'zod';
import { SeededRandom } from './seed/random.js';

export const faultRuleSchema = z.strictObject({
  /** e.g. `PUT`; any method when absent. */
  method: z.string().toUpperCase().optional(),
  /** Matches request paths starting with this prefix; any path when absent. */
  path_prefix: z.string().startsWith('/').optional(),
  /** How many matching requests fail before the rule is spent. */
  count: z.number().int().positive(),
  status: z
    .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
    .default(500),
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

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
  fail_next: z.array(faultRuleSchema).default([]),
  /** Share of webhooks never sent (recorded as dropped). */
  webhook_drop_rate: rate.default(0),
  /** Share of webhooks sent twice. */
  webhook_duplicate_rate: rate.default(0),
  /** Share of webhooks held back and sent after the next event. */
  webhook_reorder_rate: rate.default(0),
  /** A held-back webhook goes out after this long even when no next event comes. */
  webhook_reorder_max_hold_ms: z.number().int().nonnegative().default(1_000),
  /** Share of webhooks delayed by `webhook_delay_ms` plus up to `webhook_delay_jitter_ms` (every one by default). */
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
  | { kind: 'error'; delayMs: number; status: number; retryAfterSeconds?: number };

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

/** Decides, reproducibly from a seed, which bank calls and webhooks fail or slow down. Counts what it injected. */
export class FaultInjector {
  private settings: FaultSettings;
  private random: SeededRandom;
  private webhookRandom: SeededRandom;
  readonly injected = zeroCounts();

  /** `initial` applies from the start and again after every reset. */
  constructor(
    seed: number,
    private readonly initial: Partial<FaultSettings> = {},
  ) {
    this.settings = faultSettingsSchema.parse({ ...initial, seed });
    this.random = new SeededRandom(seed);
    this.webhookRandom = webhookStream(seed);
  }

  configure(settings: FaultSettings): void {
    this.settings = settings;
    if (settings.seed !== undefined) {
      this.random = new SeededRandom(settings.seed);
      this.webhookRandom = webhookStream(settings.seed);
    }
  }

  current(): FaultSettings {
    return this.settings;
  }

  reset(seed: number): void {
    this.configure(faultSettingsSchema.parse({ ...this.initial, seed }));
    Object.assign(this.injected, zeroCounts());
  }

  decide(method: string, path: string): FaultDecision {
    const s = this.settings;
    let delayMs = s.latency_ms;
    if (s.latency_spike_rate > 0 && this.random.chance(s.latency_spike_rate)) {
      delayMs += s.latency_spike_ms;
      this.injected.latencySpikes++;
    }
    if (delayMs > 0) this.injected.delayed++;

    const rule = s.fail_next.find(
      (r) =>
        r.count > 0 &&
        (!r.method || r.method === method) &&
        (!r.path_prefix || path.startsWith(r.path_prefix)),
    );
    if (rule) {
      rule.count--;
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
