import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';
import { deployNewBuild, type DeployRecord } from './deploy.js';
import type { DisruptionPlan } from './plan.js';
import { credentialRotation, schemaDrift } from './profile.js';
import { SandboxControl } from './sandbox-control.js';
import type { ChaosStack } from './stack.js';

export interface RunningDisruptions {
  /** Stops killing workers, waits for the one-off restarts, and brings every worker back up. */
  stop(): Promise<void>;
  /** Failures of the disruptions themselves (a restart that did not come back), not of bankflow. */
  errors: string[];
  /** The mid-run deploy of a new build, once its promotion went through. */
  deploy?: DeployRecord;
  /** The bank's own disruptions that began: its credential rotation, its schema drift. */
  bank: { credentialRotation: boolean; schemaDrift: boolean };
}

/**
 * Runs the plan against the stack from `startedAt`: the Temporal dev server and the receiver restarted once
 * each at their planned moments, one worker (a seeded one) redeployed on a new build that is then promoted,
 * the bank rotating its credentials (every call 401 for a while) and its schema drifting (the journeys' reads
 * in unknown statuses and members for a while), and workers SIGKILLed at seeded intervals, each restarted
 * after a seeded pause, until `stop()`.
 */
export function startDisruptions(
  stack: ChaosStack,
  plan: DisruptionPlan,
  seed: number,
  startedAt: number,
  log: (line: string) => void,
): RunningDisruptions {
  const errors: string[] = [];
  const running: RunningDisruptions = {
    errors,
    stop: () => Promise.resolve(),
    bank: { credentialRotation: false, schemaDrift: false },
  };
  const control = new SandboxControl(stack.sandbox.url);
  const random = seededRandomFor(seed, 'chaos-kills');
  const stopping = new AbortController();
  const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;
  const at = (offsetMs: number) =>
    sleep(Math.max(0, startedAt + offsetMs - Date.now()), undefined, { signal: stopping.signal });
  const attempt = async (what: string, action: () => Promise<void>) => {
    try {
      await action();
    } catch (error) {
      errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const temporalRestart = (async () => {
    await at(plan.temporalRestartAtMs);
    log(`[${elapsed()}] Temporal dev server: stopping, down for ${plan.temporalDownMs} ms, then restarting`);
    await attempt('Temporal restart', () => stack.temporal.restart(plan.temporalDownMs));
    log(`[${elapsed()}] Temporal dev server: back`);
  })().catch(() => undefined);

  const receiverRestart = (async () => {
    await at(plan.receiverRestartAtMs);
    log(`[${elapsed()}] receiver: stopping, down for ${plan.receiverDownMs} ms, then restarting`);
    await attempt('receiver restart', () => stack.receiver.restart(plan.receiverDownMs));
    log(`[${elapsed()}] receiver: back`);
  })().catch(() => undefined);

  const deploy = (async () => {
    await at(plan.deployAtMs);
    const slot = seededRandomFor(seed, 'chaos-deploy').int(0, stack.workers.size - 1);
    log(`[${elapsed()}] worker ${slot + 1}: redeployed on a new build`);
    await attempt('deploy', async () => {
      running.deploy = await deployNewBuild(stack, slot, startedAt, log);
      log(`[${elapsed()}] new build ${running.deploy.newBuildId} promoted to current`);
    });
  })().catch(() => undefined);

  // Added to the running faults, whose seeded streams go on: the rest of the run draws the same faults.
  const rotation = (async () => {
    await at(plan.credentialRotationAtMs);
    log(
      `[${elapsed()}] bank: rotating its credentials, every call refused 401 for ${plan.credentialRotationMs} ms`,
    );
    await attempt('credential rotation', async () => {
      await control.post('/sandbox/faults/rules', credentialRotation(plan.credentialRotationMs));
      running.bank.credentialRotation = true;
    });
  })().catch(() => undefined);

  const drift = (async () => {
    await at(plan.schemaDriftAtMs);
    log(
      `[${elapsed()}] bank: schema drift, reads in unknown statuses and members for ${plan.schemaDriftMs} ms`,
    );
    await attempt('schema drift', async () => {
      await control.post('/sandbox/faults/rules', schemaDrift(plan.schemaDriftMs));
      running.bank.schemaDrift = true;
    });
  })().catch(() => undefined);

  const kills = (async () => {
    while (!stopping.signal.aborted) {
      await sleep(random.int(plan.killGapMs.min, plan.killGapMs.max), undefined, { signal: stopping.signal });
      const slot = random.int(0, stack.workers.size - 1);
      const downMs = random.int(plan.killDownMs.min, plan.killDownMs.max);
      if (!stack.workers.isRunning(slot)) continue;
      log(`[${elapsed()}] worker ${slot + 1}: SIGKILL, restart in ${downMs} ms`);
      await stack.workers.kill(slot);
      await sleep(downMs);
      // A worker that cannot start (Temporal restarting) exits, and the pool starts it again.
      await stack.workers.start(slot).catch(() => log(`[${elapsed()}] worker ${slot + 1}: start failed`));
    }
  })().catch(() => undefined);

  running.stop = async () => {
    stopping.abort();
    await Promise.all([temporalRestart, receiverRestart, deploy, rotation, drift, kills]);
    await attempt('worker start', () => stack.workers.startAll());
  };
  return running;
}
