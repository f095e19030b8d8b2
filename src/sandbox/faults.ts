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

export const faultSettingsSchema = z.strictObject({
  seed: z.number().int().nonnegative().optional(),
  /** Share of bank calls answered 500 INTEGRATION_ERROR. */
  error_rate: z.number().min(0).max(1).default(0),
  /** Share of bank calls answered 429 with Retry-After. */
  rate_limit_rate: z.number().min(0).max(1).default(0),
  retry_after_seconds: z.number().int().nonnegative().default(1),
  /** Added to every bank call. */
  latency_ms: z.number().int().nonnegative().default(0),
  /** Share of bank calls that get `spike_ms` on top. */
  latency_spike_rate: z.number().min(0).max(1).default(0),
  latency_spike_ms: z.number().int().nonnegative().default(0),
  fail_next: z.array(faultRuleSchema).default([]),
});
export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export type FaultDecision =
  | { kind: 'pass'; delayMs: number }
  | { kind: 'error'; delayMs: number; status: number; retryAfterSeconds?: number };

/** Decides, reproducibly from a seed, which bank calls fail or slow down. Counts what it injected. */
export class FaultInjector {
  private settings: FaultSettings;
  private random: SeededRandom;
  readonly injected = { errors: 0, rateLimited: 0, delayed: 0, ruleFailures: 0 };

  constructor(seed: number) {
    this.settings = faultSettingsSchema.parse({ seed });
    this.random = new SeededRandom(seed);
  }

  configure(settings: FaultSettings): void {
    this.settings = settings;
    if (settings.seed !== undefined) this.random = new SeededRandom(settings.seed);
  }

  current(): FaultSettings {
    return this.settings;
  }

  reset(seed: number): void {
    this.configure(faultSettingsSchema.parse({ seed }));
    Object.assign(this.injected, { errors: 0, rateLimited: 0, delayed: 0, ruleFailures: 0 });
  }

  decide(method: string, path: string): FaultDecision {
    const s = this.settings;
    let delayMs = s.latency_ms;
    if (s.latency_spike_rate > 0 && this.random.chance(s.latency_spike_rate)) delayMs += s.latency_spike_ms;
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
}
