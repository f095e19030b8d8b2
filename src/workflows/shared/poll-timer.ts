import { CancellationScope, condition, sleep } from '@temporalio/workflow';
import type { PollPace } from './poll-pace.js';

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
 * for the poll budget (poll-pace.ts).
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
