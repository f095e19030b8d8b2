import { buildBMemoKey } from '../../devkit/versioning/build-b-payment.js';
import type { DeployRecord } from './deploy.js';
import type { RunHistory } from './histories.js';
import type { Violations } from './violations.js';

/**
 * How long after the promotion a run or task may still go to the old build: the server hands the new routing
 * to the task queue's partitions, and a task dispatched just before it runs (and may be retried, 10 s
 * timeout) there.
 */
export const promotionGraceMs = 15_000;

/** The runs that had a task on one build: all of them, and how they are versioned. */
export interface BuildCount {
  buildId: string;
  role: 'initial' | 'new' | 'other';
  runs: number;
  pinned: number;
  autoUpgrade: number;
}

export interface BuildAccounting {
  builds: BuildCount[];
  /**
   * Workflows (long-lived ones, by continue-as-new) with a run that started on the initial build and a later
   * run that started on the new one: they moved at the deploy.
   */
  moved: number;
  /** When the new build became current, from the start of the run; absent when no deploy went through. */
  promotedAtMs?: number;
}

const distinct = (run: RunHistory) => [...new Set(run.tasks.map((task) => task.buildId))];
const subjectOf = (run: RunHistory) => `${run.info.workflowId} (${run.info.type})`;
const short = (buildId: string) => buildId.slice(0, 8) || 'an unversioned worker';

/**
 * The mid-run deploy, from every run's completed workflow tasks: every task ran on a versioned worker; a
 * pinned run finished on the build that started it (a payment the old build started never replays on the new
 * one); once the new build is current, every run a client starts starts on it and every auto-upgrade run's
 * tasks run on it; before, no run's first task ran on it; and the new build's payments, and only they, took
 * its one extra decision (its memo key), so its code ran. Nondeterminism errors and failed workflow tasks are
 * `auditWorkflows`'s.
 */
export function auditBuilds(
  runs: RunHistory[],
  deploy: DeployRecord | undefined,
  violations: Violations,
): BuildAccounting {
  const counts = new Map<string, BuildCount>();
  const firstBuilds = new Map<string, Set<string>>();
  for (const run of runs) {
    const builds = distinct(run);
    const first = run.tasks[0];
    if (builds.includes('')) {
      violations.add(
        'every workflow task ran on a versioned worker',
        subjectOf(run),
        'a task with no build id',
      );
    }
    if (run.tasks.some((task) => task.behavior === 'pinned') && builds.length > 1) {
      violations.add(
        'every pinned run finished on the build that started it',
        subjectOf(run),
        `tasks on ${builds.map(short).join(' then ')}`,
      );
    }
    if (first) {
      const ofWorkflow = firstBuilds.get(run.info.workflowId) ?? new Set<string>();
      firstBuilds.set(run.info.workflowId, ofWorkflow.add(first.buildId));
    }
    for (const buildId of builds) {
      const role =
        buildId === deploy?.initialBuildId ? 'initial' : buildId === deploy?.newBuildId ? 'new' : 'other';
      const count = counts.get(buildId) ?? { buildId, role, runs: 0, pinned: 0, autoUpgrade: 0 };
      count.runs++;
      if (first?.behavior === 'pinned') count.pinned++;
      if (first?.behavior === 'auto-upgrade') count.autoUpgrade++;
      counts.set(buildId, count);
    }
    if (!deploy || !first) continue;

    const after = deploy.promotedAt + promotionGraceMs;
    const before = deploy.promotedAt - promotionGraceMs;
    if (run.startedByClient && run.startedAt > after && first.buildId !== deploy.newBuildId) {
      violations.add(
        'a run started after the deploy starts on the new build',
        subjectOf(run),
        `started ${((run.startedAt - deploy.promotedAt) / 1000).toFixed(1)} s after the promotion, on ${short(first.buildId)}`,
      );
    }
    // A run takes its build at its first task: one started before the promotion whose first task waited (its
    // worker killed) until after it goes to the new build, as it should.
    if (first.at < before && first.buildId === deploy.newBuildId) {
      violations.add(
        'no run starts on the new build before it is current',
        subjectOf(run),
        `first task ${((deploy.promotedAt - first.at) / 1000).toFixed(1)} s before the promotion, on the new build`,
      );
    }
    const stayed = run.tasks.filter(
      (task) => task.behavior === 'auto-upgrade' && task.at > after && task.buildId !== deploy.newBuildId,
    );
    if (stayed.length > 0) {
      violations.add(
        'an auto-upgrade run moves to the new build',
        subjectOf(run),
        `${stayed.length} task(s) after the promotion on ${short(stayed[0]?.buildId ?? '')}`,
      );
    }
    if (run.info.type === 'biometricPaymentWorkflow') {
      const tookNewDecision = run.upsertedMemoKeys.includes(buildBMemoKey);
      if (tookNewDecision !== (first.buildId === deploy.newBuildId)) {
        violations.add(
          'a payment takes the decisions of the build it runs on',
          subjectOf(run),
          `ran on ${short(first.buildId)} ${tookNewDecision ? 'with' : 'without'} the new build's memo upsert`,
        );
      }
    }
  }
  const order = { initial: 0, new: 1, other: 2 };
  const moved = [...firstBuilds.values()].filter(
    (started) => deploy !== undefined && started.has(deploy.initialBuildId) && started.has(deploy.newBuildId),
  ).length;
  return {
    builds: [...counts.values()].sort((a, b) => order[a.role] - order[b.role]),
    moved,
    promotedAtMs: deploy?.promotedAtMs,
  };
}
