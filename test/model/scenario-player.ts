import { ActivityFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { ReceivedWebhook } from '../../src/contract/webhook-events.js';
import type { Command, Delivery } from './commands.js';
import { isRunning, settleMs, signalIfRunning } from './driver.js';
import type { FaultQueue } from './faults.js';
import type { ModelWorld } from './model-world.js';
import type { RecordHistory } from './record-history.js';

type BankRecord = { id: string; status: string; updated_at: string };

/** What the player needs of one model bank and of the workflow following it. */
export interface Subject<S extends string, R extends BankRecord> {
  handle: WorkflowHandle;
  bank: {
    faults: FaultQueue;
    record: RecordHistory<R>;
    status: S | undefined;
    change(to: S, lag: number): R;
  };
  /** Where the bank may move its record from each status. */
  moves: Record<S, S[]>;
  webhookSignal: SignalDefinition<[ReceivedWebhook]>;
  /** The webhooks the bank sends for a version of its record. */
  eventsFor(record: R): ReceivedWebhook[];
  /** The customer's n-th submission of an assertion. */
  submit(n: number, assertion: 'valid' | 'invalid'): Promise<void>;
  /** Checked after each move while the workflow runs. */
  afterMove?(): Promise<void>;
}

/**
 * Plays a scenario's moves while the workflow runs; each move is followed by a poll's worth of skipped time.
 */
export class ScenarioPlayer<S extends string, R extends BankRecord> {
  private readonly held: (() => Promise<void>)[] = [];

  constructor(
    private readonly world: ModelWorld,
    private readonly subject: Subject<S, R>,
  ) {}

  async play(commands: Command<S>[]): Promise<void> {
    const { handle, afterMove } = this.subject;
    await this.world.stack.skip(settleMs);
    for (const command of commands) {
      if (!(await isRunning(handle))) return;
      await this.playOne(command);
      await this.world.stack.skip(settleMs);
      if (afterMove && (await isRunning(handle))) await afterMove();
    }
  }

  /** The bank moves its record to its `pick`-th possible next status among `allowed`, if it has one. */
  async moveBank(
    pick: number,
    delivery: Delivery,
    lag: number,
    allowed: (status: S) => boolean = () => true,
  ) {
    const { bank, moves } = this.subject;
    const next = bank.status ? moves[bank.status].filter(allowed) : [];
    const to = next[pick % Math.max(next.length, 1)];
    if (!to) return;
    for (const event of this.subject.eventsFor(bank.change(to, lag))) {
      if (delivery === 'held') this.held.push(this.webhook(event));
      if (delivery === 'sent' || delivery === 'twice') await this.webhook(event)();
      if (delivery === 'twice') await this.webhook(event)();
    }
  }

  private webhook(event: ReceivedWebhook) {
    const { handle, webhookSignal } = this.subject;
    return () => signalIfRunning(handle, (h) => h.signal(webhookSignal, event));
  }

  private async playOne(command: Command<S>): Promise<void> {
    const { bank, eventsFor } = this.subject;
    const { versions, latest } = bank.record;
    switch (command.do) {
      case 'wait':
        return this.world.stack.skip(command.ms);
      case 'fault':
        return bank.faults.add(command.fault, command.count);
      case 'read-fault':
        return bank.faults.addToReads(command.fault, command.count);
      case 'deliver-held':
        for (const deliver of this.held.splice(0).reverse()) await deliver();
        return;
      case 'stale-webhook': {
        const record = versions[Math.max(0, versions.length - 1 - command.back)];
        if (record) for (const event of eventsFor(record)) await this.webhook(event)();
        return;
      }
      case 'false-webhook':
      case 'foreign-webhook': {
        if (!latest) return;
        const id = command.do === 'foreign-webhook' ? latest.id.replace(/^./, 'f') : latest.id;
        // An end-to-end id no bank answer carries: a result holding it took it from a webhook.
        const record = {
          ...latest,
          id,
          status: command.status,
          end_to_end_id: 'E-not-from-the-bank',
          updated_at: '2031-01-01T00:00:00.000Z',
        };
        for (const event of eventsFor(record).slice(0, 1)) await this.webhook(event)();
        return;
      }
      case 'bank-moves':
        return this.moveBank(command.pick, command.delivery, command.lag);
      case 'customer':
        for (let n = 0; n < command.times; n++) await this.subject.submit(n, command.assertion);
    }
  }
}

/** `ActivityFailure listEnrollments: Activity task failed <- ApplicationFailure BankUnauthorized: ...`. */
function failureChain(failure: Error | undefined): string {
  const links: string[] = [];
  for (let link = failure; link && links.length < 5; link = link.cause as Error | undefined) {
    const detail = link instanceof ActivityFailure ? link.activityType : (link as { type?: string }).type;
    links.push(`${link.name}${detail ? ` ${detail}` : ''}: ${link.message}`);
  }
  return links.join(' <- ') || 'no failure given';
}

/**
 * The workflow's result; a workflow that failed breaks the first promise of both journeys, to end with one,
 * and the promise that no read (refused, failing, unreadable, in an unknown status) ends a journey.
 */
export async function resultOf<T>(handle: WorkflowHandle, violation: (detail: string) => Error): Promise<T> {
  try {
    return (await handle.result()) as T;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw violation(`it failed: ${String(error)}`);
    throw violation(`it failed: ${failureChain(error.cause)}`);
  }
}
