import type { Hints } from './polling.js';

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
