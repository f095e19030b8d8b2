import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { WebhookEnvelope } from '../../../src/bank/schemas/webhook.js';
import type { FaultInjector, WebhookFaultDecision } from '../faults.js';
import { SeededRandom } from '../seed/random.js';
import { WebhookLog, type WebhookEventRecord } from './delivery-log.js';
import { postWebhook } from './post.js';
import { ReorderBuffer } from './reorder.js';
import { backoffMs, defaultWebhookTarget, mergeTarget, type WebhookTarget } from './target.js';

/** What a sandbox route publishes when a record changes; the dispatcher stamps the timestamp. */
export interface WebhookEvent {
  category: string;
  type: string;
  ref_id: string;
  data: Record<string, unknown>;
  context_type?: string;
  context_id?: string;
}

export interface WebhookDispatcherOptions {
  logger: Logger;
  /** Drop, duplicate, reorder and delay come from its settings. */
  faults: FaultInjector;
  /** Unset fields take the defaults (no URL, 5 attempts, 1 s base delay, 3 s timeout). */
  target?: Partial<WebhookTarget>;
}

/** One event on its way: its record, the exact bytes announced, and the target it was addressed to. */
interface Delivery {
  record: WebhookEventRecord;
  body: string;
  target: WebhookTarget & { url: string };
  faults: WebhookFaultDecision;
}

/**
 * The bank's outgoing webhooks. Routes call `publish`; every published envelope is kept in `published` so
 * tests and the control API can see what the bank announced. Delivery runs in the background: signed POSTs to
 * the configured URL, retried with exponential backoff, shaped by the webhook faults, each attempt in `log`.
 */
export class WebhookDispatcher {
  readonly published: WebhookEnvelope[] = [];
  readonly log = new WebhookLog();
  private target: WebhookTarget;
  private readonly logger: Logger;
  private readonly faults: FaultInjector;
  private readonly closing = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** The resources each category's events were about, for the foreign-id fault to pick from. */
  private readonly announcedIds = new Map<string, Set<string>>();
  private readonly reorder = new ReorderBuffer<Delivery>((delivery) => this.start(delivery));

  constructor(options: WebhookDispatcherOptions) {
    this.logger = options.logger;
    this.faults = options.faults;
    this.target = mergeTarget(defaultWebhookTarget, options.target ?? {});
    // Every delivery in flight listens for the close, and hundreds can be in flight; none outlives its
    // attempt.
    setMaxListeners(0, this.closing.signal);
  }

  get settings(): WebhookTarget {
    return this.target;
  }

  /** Applies to events published from now on; fields left undefined keep their value. */
  configure(update: Partial<WebhookTarget>): void {
    this.target = mergeTarget(this.target, update);
  }

  /** Forgets what was published and delivered, as part of a sandbox reset. */
  clearHistory(): void {
    this.published.splice(0);
    this.announcedIds.clear();
    this.log.clear();
  }

  publish(event: WebhookEvent): WebhookEnvelope {
    return this.announce(event).envelope;
  }

  /** `publish`, answering the record (and so the event id) the control API lists. */
  announce(event: WebhookEvent): WebhookEventRecord {
    const target = this.target;
    const sending = target.url !== null && !this.closing.signal.aborted;
    const faults = sending ? this.faults.decideWebhook() : null;
    const announced = this.announcedIds.get(event.category) ?? new Set<string>();
    this.announcedIds.set(event.category, announced.add(event.ref_id));
    const sent = faults?.foreign_pick == null ? event : this.withForeignId(event, faults.foreign_pick);
    const body = JSON.stringify({ ...sent, timestamp: new Date().toISOString() });
    // A snapshot: routes keep changing their records, and a retry must send what was announced.
    const envelope = JSON.parse(body) as WebhookEnvelope;
    this.published.push(envelope);
    const record: WebhookEventRecord = {
      id: randomUUID(),
      status: target.url ? 'cancelled' : 'undeliverable',
      envelope,
      replaced_ref_id: sent === event ? null : event.ref_id,
      url: target.url,
      faults,
      attempts: 0,
      delivered_copies: 0,
    };
    this.log.addEvent(record);
    if (!faults || !target.url) return record;

    const delivery: Delivery = { record, body, target: { ...target, url: target.url }, faults };
    if (faults.dropped) {
      record.status = 'dropped';
    } else if (faults.reordered) {
      record.status = 'held';
      this.reorder.hold(delivery, this.faults.current().webhook_reorder_max_hold_ms);
    } else {
      this.start(delivery, this.reorder.takeAll());
    }
    return record;
  }

  /**
   * The event naming another resource of its category the bank announced before (`pick` chooses which), or an
   * unknown one when there is none: its `ref_id` and `data.id` change, the rest of the record stays.
   */
  private withForeignId(event: WebhookEvent, pick: number): WebhookEvent {
    const others = [...(this.announcedIds.get(event.category) ?? [])].filter((id) => id !== event.ref_id);
    const foreignId = others[Math.floor(pick * others.length)] ?? new SeededRandom(pick * 2 ** 32).uuid();
    return { ...event, ref_id: foreignId, data: { ...event.data, id: foreignId } };
  }

  /** Stops every timer and connection; events still on their way end as cancelled. */
  async close(): Promise<void> {
    this.closing.abort();
    for (const delivery of this.reorder.takeAll()) delivery.record.status = 'cancelled';
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /**
   * Delivers in the background; `afterwards` (events held back by the reorder fault) follow once it is done.
   */
  private start(delivery: Delivery, afterwards: Delivery[] = []): void {
    const run = this.deliver(delivery).then(() => afterwards.forEach((next) => this.start(next)));
    this.running.add(run);
    void run.then(() => this.running.delete(run));
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { record, faults } = delivery;
    const signal = this.closing.signal;
    record.status = 'pending';
    try {
      if (faults.delay_ms > 0) await sleep(faults.delay_ms, undefined, { signal });
      let delivered = false;
      for (let copy = 1; copy <= (faults.duplicated ? 2 : 1); copy++) {
        delivered = (await this.sendCopy(delivery, copy)) || delivered;
      }
      record.status = delivered ? 'delivered' : 'failed';
    } catch {
      // Only the close signal interrupts a delivery.
      record.status = 'cancelled';
    }
  }

  /** One copy of the event, tried until a 2xx or `maxAttempts`; true when it arrived. */
  private async sendCopy({ record, body, target }: Delivery, copy: number): Promise<boolean> {
    const signal = this.closing.signal;
    const { category, type } = record.envelope;
    for (let attempt = 1; attempt <= target.maxAttempts; attempt++) {
      if (attempt > 1) await sleep(backoffMs(target, attempt - 1), undefined, { signal });
      signal.throwIfAborted();
      const startedAt = new Date().toISOString();
      const started = performance.now();
      const outcome = await postWebhook({
        url: target.url,
        eventId: record.id,
        body,
        secret: target.secret,
        timeoutMs: target.timeoutMs,
        signal,
      });
      const statusCode = 'statusCode' in outcome ? outcome.statusCode : null;
      const error = 'error' in outcome ? outcome.error : null;
      const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
      const result = {
        copy,
        attempt,
        started_at: startedAt,
        duration_ms: Math.round(performance.now() - started),
        status_code: statusCode,
        error,
        delivered,
      };
      this.log.addAttempt(record, result);
      this.logger.debug({ event_id: record.id, category, type, ...result }, 'webhook delivery attempt');
      signal.throwIfAborted();
      if (delivered) return true;
    }
    this.logger.warn(
      { event_id: record.id, category, type, copy, attempts: target.maxAttempts },
      'webhook delivery gave up',
    );
    return false;
  }
}
