import type { Client, WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { workflowIds } from '../contract/ids.js';
import { recurrenceAttemptsSignal } from '../contract/temporal.js';
import type { AttemptsDelivery, SyncedAttempt, UnknownRecurrence } from '../contract/attempts-sync.js';

/**
 * Attempts per signal: about 300 KB, under the Temporal server's 512 KB warning for one payload, however many
 * attempts a batch holds. Signals of 250 gave a recurrence two signals a batch in quick succession, and one
 * that arrived while the recurrence continued as new made the server refuse it and the worker replay the
 * whole run (docs/performance.md).
 */
export const attemptsPerSignal = 1_000;

/**
 * Recurrences a delivery signals at once. A page of distinct recurrences each made a delivery of thousands of
 * simultaneous calls (a signal, and a describe for each unknown one), which overloaded the Temporal server's
 * persistence until its calls timed out, and took longer than a steady stream of this many.
 */
export const signalsInFlight = 64;

/** Temporal's answer to a signal for a workflow that does not exist or has closed. */
const isNotFound = (error: unknown) => error instanceof WorkflowNotFoundError;

/**
 * One recurrence's share of a batch: its signals go out one after another, in the order its attempts came.
 */
interface RecurrenceDelivery {
  externalId: string;
  handle: WorkflowHandle;
  /** Attempts taken but not yet handed to a signal. */
  pending: SyncedAttempt[];
  /** The signals handed out so far, chained so they reach the recurrence in order. */
  sent: Promise<void>;
  signals: number;
  unknown?: UnknownRecurrence;
}

/**
 * Signals each recurrence its attempts of a batch of pages: as soon as it has `attemptsPerSignal` attempts
 * waiting, while the pages are still being fetched, and the rest when the batch is finished, so the signals
 * of a large batch overlap its paging and the batch never holds more than a signal's worth per recurrence. A
 * recurrence's signals go out one after another, in the order of its attempts. A signal that fails stops the
 * delivery and fails `finish`, so the batch is fetched and signalled again, which the recurrences take as
 * duplicates.
 */
export class AttemptsDeliveryBatch {
  private readonly byRecurrence = new Map<string, RecurrenceDelivery>();
  private readonly byStatus: Record<string, number> = {};
  private attempts = 0;
  private failure: { error: unknown } | undefined;
  private inFlight = 0;
  private readonly waitingForSlot: (() => void)[] = [];

  /**
   * `progress` is called after every call to Temporal, so an activity delivering thousands of recurrences
   * keeps heartbeating while its signals go out. Once `cancelled` aborts (the activity timed out or was
   * cancelled, and a retry may already be delivering the same pages) no further call starts.
   */
  constructor(
    private readonly client: Client,
    private readonly options: { progress?: () => void; cancelled?: AbortSignal } = {},
  ) {}

  /** Whether a signal has failed already: the batch will fail, so fetching more pages for it is wasted. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  add(attempts: SyncedAttempt[]): void {
    for (const synced of attempts) {
      this.attempts++;
      this.byStatus[synced.attempt.status] = (this.byStatus[synced.attempt.status] ?? 0) + 1;
      const delivery = this.deliveryOf(synced.externalId);
      delivery.pending.push(synced);
      if (delivery.pending.length >= attemptsPerSignal) this.send(delivery);
    }
  }

  /** Signals what is still pending, waits for every signal, and counts them for the sync's history. */
  async finish(pages: number): Promise<AttemptsDelivery> {
    for (const delivery of this.byRecurrence.values()) {
      if (delivery.pending.length > 0) this.send(delivery);
    }
    await Promise.all([...this.byRecurrence.values()].map((delivery) => delivery.sent));
    if (this.failure) throw this.failure.error;
    const deliveries = [...this.byRecurrence.values()];
    return {
      pages,
      attempts: this.attempts,
      byStatus: this.byStatus,
      signals: deliveries.reduce((sum, delivery) => sum + delivery.signals, 0),
      updated: deliveries.filter((delivery) => !delivery.unknown).map((delivery) => delivery.externalId),
      unknown: deliveries.flatMap((delivery) => (delivery.unknown ? [delivery.unknown] : [])),
    };
  }

  private deliveryOf(externalId: string): RecurrenceDelivery {
    let delivery = this.byRecurrence.get(externalId);
    if (!delivery) {
      delivery = {
        externalId,
        handle: this.client.workflow.getHandle(workflowIds.recurrence(externalId)),
        pending: [],
        sent: Promise.resolve(),
        signals: 0,
      };
      this.byRecurrence.set(externalId, delivery);
    }
    return delivery;
  }

  private send(delivery: RecurrenceDelivery): void {
    const chunk = delivery.pending;
    delivery.pending = [];
    delivery.sent = delivery.sent
      .then(() => this.inSlot(() => this.signal(delivery, chunk)))
      .catch((error: unknown) => {
        this.failure ??= { error };
      });
  }

  /** Runs `call` once fewer than `signalsInFlight` calls of the delivery are under way. */
  private async inSlot(call: () => Promise<void>): Promise<void> {
    while (this.inFlight >= signalsInFlight) {
      await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
    }
    this.inFlight++;
    try {
      this.options.cancelled?.throwIfAborted();
      await call();
      this.options.progress?.();
    } finally {
      this.inFlight--;
      this.waitingForSlot.shift()?.();
    }
  }

  /**
   * One signal, or the chunk counted as unknown when the recurrence has no workflow. Nothing more is
   * signalled once a signal has failed: the batch is retried as a whole.
   */
  private async signal(delivery: RecurrenceDelivery, chunk: SyncedAttempt[]): Promise<void> {
    if (this.failure) return;
    if (!delivery.unknown) {
      try {
        await delivery.handle.signal(recurrenceAttemptsSignal, {
          source: 'sync',
          attempts: chunk.map((synced) => synced.attempt),
        });
        delivery.signals++;
        return;
      } catch (error) {
        // A recurrence that ended after taking some of the batch's attempts: the retried batch reports it.
        if (!isNotFound(error) || delivery.signals > 0) throw error;
      }
      delivery.unknown = await this.unknownRecurrence(delivery);
    }
    delivery.unknown.recurrenceId ??= chunk.find((synced) => synced.recurrenceId)?.recurrenceId ?? null;
    delivery.unknown.attempts += chunk.length;
    delivery.unknown.attemptIds.push(...chunk.map((synced) => synced.attempt.id));
  }

  private async unknownRecurrence(delivery: RecurrenceDelivery): Promise<UnknownRecurrence> {
    const closed = await delivery.handle.describe().then(
      () => true,
      (error: unknown) => {
        if (isNotFound(error)) return false;
        throw error;
      },
    );
    return {
      externalId: delivery.externalId,
      recurrenceId: null,
      workflow: closed ? 'closed' : 'missing',
      attempts: 0,
      attemptIds: [],
    };
  }
}
