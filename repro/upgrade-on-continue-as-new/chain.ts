import {
  condition,
  defineSignal,
  makeContinueAsNewFunc,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';

/** Ends the current run: it continues as new, or the chain's last run returns. */
export const next = defineSignal('next');

export interface RunRecord {
  run: number;
  /**
   * The constant of the bundle whose code ran this run: proof of the build independent of the server's
   * records.
   */
  build: string;
  /** `workflowInfo().currentBuildId` at the run's first workflow task. */
  firstTaskBuildId: string;
  /** `workflowInfo().targetWorkerDeploymentVersionChanged` at the run's first workflow task. */
  targetChangedAtStart: boolean;
  /** The same flag in the workflow task that delivered `next`; absent for the last run. */
  targetChangedAtNext?: boolean;
}

export interface ChainInput {
  /** Continue as new with `initialVersioningBehavior: 'AUTO_UPGRADE'`; false is the control. */
  upgrade: boolean;
  /** Runs in the chain, the last one included. */
  runs: number;
  records: RunRecord[];
}

export type Chain = (input: ChainInput) => Promise<RunRecord[]>;

/**
 * The workflow each build registers as `upgradeChain`; only `build` differs between the two bundles, so the
 * record of each run says whose code ran it.
 */
export function chain(build: string): Chain {
  return async (input) => {
    const info = workflowInfo();
    const record: RunRecord = {
      run: input.records.length + 1,
      build,
      firstTaskBuildId: info.currentBuildId ?? '',
      targetChangedAtStart: info.targetWorkerDeploymentVersionChanged,
    };
    const records = [...input.records, record];
    if (record.run >= input.runs) return records;
    let nudged = false;
    setHandler(next, () => {
      nudged = true;
      // Read here: the flag is refreshed with every workflow task, and this is the task that ends the run.
      record.targetChangedAtNext = workflowInfo().targetWorkerDeploymentVersionChanged;
    });
    await condition(() => nudged);
    const continueAsNew = makeContinueAsNewFunc<Chain>(
      input.upgrade ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {},
    );
    return continueAsNew({ ...input, records });
  };
}
