import type { JobWindow } from '../../contract/jobs.js';
import type {
  WindowClaim,
  WindowCursorState,
  WindowDone,
  WindowGrant,
} from '../../contract/window-cursor.js';

/** A grant and the run to send it to. */
export interface Answer {
  workflowId: string;
  scheduleId: string;
  grant: WindowGrant;
  /** The schedule's time before the run's scheduled time: a window starting earlier is catching up. */
  previous: string;
}

const before = (a: string, b: string) => Date.parse(a) < Date.parse(b);

/**
 * Where a schedule's covered time ends, and who covers what next. One window is held at a time, so two runs
 * never claim the same time; it becomes covered only when its run says it completed it, so a failed run moves
 * nothing and the next claim starts where the last completed window ended.
 */
export class WindowCursor {
  /** Answers to claims repeated by a run that already holds its window. */
  readonly repeated: Answer[] = [];

  constructor(readonly state: WindowCursorState) {}

  claim(claim: WindowClaim): void {
    const { held, waiting } = this.state;
    if (held?.claimId === claim.claimId) {
      this.repeated.push({
        workflowId: claim.workflowId,
        scheduleId: claim.scheduleId,
        previous: claim.previous,
        grant: { claimId: claim.claimId, window: held.window, claimed: true },
      });
    } else if (!waiting.some((queued) => queued.claimId === claim.claimId)) {
      waiting.push(claim);
    }
  }

  /** A completed window moves the cursor only if it is the one held. */
  done({ workflowId, window }: WindowDone): void {
    const held = this.state.held;
    if (!held || held.workflowId !== workflowId) return;
    if (held.window.from !== window.from || held.window.to !== window.to) return;
    this.state.coveredUntil = window.to;
    this.state.held = null;
  }

  /** Releases the held window of a run that ended without completing it (failed, cancelled, terminated). */
  release(claimId: string): void {
    if (this.state.held?.claimId === claimId) this.state.held = null;
  }

  /** The run holding the window while other claims wait for it. */
  blockedBy(): { claimId: string; workflowId: string } | undefined {
    const held = this.state.held;
    return held && this.state.waiting.length > 0 ? held : undefined;
  }

  /**
   * Answers the oldest waiting claim once no window is held: from where the last completed window ended (or the
   * schedule's previous time, the first time ever) to the run's scheduled time, held until completed. A run whose
   * scheduled time is already covered gets its scheduled interval back, unheld.
   */
  grantNext(): Answer | undefined {
    if (this.state.held) return undefined;
    const claim = this.state.waiting.shift();
    if (!claim) return undefined;
    const { claimId, workflowId, scheduleId, scheduledAt, previous } = claim;
    const from = this.state.coveredUntil ?? previous;
    if (!before(from, scheduledAt)) {
      return {
        workflowId,
        scheduleId,
        previous,
        grant: { claimId, window: { from: previous, to: scheduledAt }, claimed: false },
      };
    }
    const window: JobWindow = { from, to: scheduledAt };
    this.state.held = { claimId, workflowId, window };
    return { workflowId, scheduleId, previous, grant: { claimId, window, claimed: true } };
  }

  /** Ends the held window earlier, when catching up further than one window may reach. */
  narrow(answer: Answer, to: string): Answer {
    const held = this.state.held;
    if (
      held?.claimId !== answer.grant.claimId ||
      !before(held.window.from, to) ||
      !before(to, held.window.to)
    ) {
      return answer;
    }
    held.window = { from: held.window.from, to };
    return { ...answer, grant: { ...answer.grant, window: held.window } };
  }
}

/** Whether a granted window starts before the run's previous scheduled time, i.e. covers missed runs too. */
export const catchingUp = (answer: Answer) =>
  answer.grant.claimed && before(answer.grant.window.from, answer.previous);
