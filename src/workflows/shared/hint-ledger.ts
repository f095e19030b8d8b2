import { patched } from '@temporalio/workflow';
import type { Hints } from './polling.js';

/**
 * Whether this run keeps its hints across waits. Runs recorded before count them per wait and must replay as
 * written; a start that states the rule (bankflow's starters do) takes it without asking the patch, whose marker
 * and search-attribute upsert would cost every journey two history events.
 */
export const keepsHintsAcrossWaits = (stated: true | undefined): boolean =>
  stated === true || patched('hints-across-waits');

/**
 * The webhooks that asked a journey to read the bank, kept across its waits until a read answers them. A hint
 * heard in the workflow task that ends one wait (a settlement webhook arriving with the authorize's answer, when
 * the worker is behind) sends the next wait to the bank at once; counted per wait, as runs started before do, it
 * was taken as answered and left to the next poll, 20 s later (docs/performance.md). A hint whose step the bank's
 * record already shows asks nothing.
 */
export class HintLedger<Step> {
  private count = 0;
  private unasked: Step[] = [];

  /**
   * @param acrossWaits the run's rule (keepsHintsAcrossWaits)
   * @param stillAhead whether the bank's record, as the journey holds it now, does not show `step` yet
   */
  constructor(
    private readonly acrossWaits: boolean,
    private readonly stillAhead: (step: Step) => boolean,
  ) {}

  heard(step: Step): void {
    this.count++;
    if (this.acrossWaits) this.unasked.push(step);
  }

  /**
   * The hints one wait asks the bank about. While `heldWhile()` holds (a call whose answer is the bank's record
   * is under way) they wait for that answer: asking meanwhile would depend on whether the answer or the hint is
   * taken first in a workflow task holding both, an order a traced worker's interceptors change, and so on which
   * worker replays the history. `alsoCounted` adds to the count of runs that count per wait.
   */
  forWait(heldWhile: () => boolean = () => false, alsoCounted: () => number = () => 0): Hints {
    if (!this.acrossWaits) {
      let asked = this.count + alsoCounted();
      return {
        pending: () => this.count + alsoCounted() !== asked,
        asked: () => {
          asked = this.count + alsoCounted();
        },
      };
    }
    return {
      pending: () => !heldWhile() && this.unasked.some(this.stillAhead),
      asked: () => {
        this.unasked = [];
      },
    };
  }
}
