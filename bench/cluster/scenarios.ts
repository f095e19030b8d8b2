import { Connection, type Client } from '@temporalio/client';
import { developmentApiKey } from '../../src/api/keys.js';
import type { BankReadContext } from '../../src/starter/index.js';
import { alive, type ClusterProcess } from './cluster-process.js';
import { runJourney, workflowTaskIdentities } from './journey.js';

export interface ScenarioContext {
  client: Client;
  taskQueue: string;
  /** The deployment's SUPPORT_LOOKUP_SECRET, which the starter keys customers with. */
  customerKeySecret: string;
  bank: BankReadContext;
  sandboxUrl: string;
  sandboxToken: string;
  address: string;
  cluster: ClusterProcess;
  log: (line: string) => void;
}

export interface Outcome {
  ok: boolean;
  detail: string;
}

const pidOf = (identity: string) => Number(identity.split('@')[0]);

export async function demoJourney(ctx: ScenarioContext): Promise<Outcome> {
  const { result } = await runJourney(ctx);
  return { ok: result.outcome === 'settled', detail: `payment ${result.outcome}` };
}

/**
 * The merchant API the cluster runs beside its workers: the bank's participants with the development key, 401
 * without a key.
 */
export async function merchantApi(ctx: ScenarioContext): Promise<Outcome> {
  const url = /Merchant API\s+(http\S+)/.exec(ctx.cluster.banner)?.[1];
  if (!url) return { ok: false, detail: 'no Merchant API URL in the banner' };
  const participants = await fetch(`${url}/v1/participants`, {
    headers: { authorization: `Bearer ${developmentApiKey}` },
  });
  const listed = ((await participants.json()) as { data?: unknown[] }).data?.length ?? 0;
  const anonymous = await fetch(`${url}/v1/participants`);
  return {
    ok: participants.status === 200 && listed > 0 && anonymous.status === 401,
    detail: `${url}: ${participants.status} with the key (${listed} participants), ${anonymous.status} without`,
  };
}

/**
 * The payment waits for its authorization; the worker that ran it so far is SIGKILLed; the other finishes it.
 */
export async function workerKilledMidPayment(ctx: ScenarioContext): Promise<Outcome> {
  let killed = 0;
  const run = await runJourney({
    ...ctx,
    before: {
      'authorize with an assertion': async (paymentId) => {
        const identities = await workflowTaskIdentities(ctx.client, paymentId);
        killed = pidOf(identities.at(-1) ?? '');
        if (!ctx.cluster.pids.workers.includes(killed))
          throw new Error(`pid ${killed} is not one of the workers`);
        process.kill(killed, 'SIGKILL');
        ctx.log(`    SIGKILLed worker pid ${killed}, which ran payment ${paymentId} so far`);
      },
    },
  });
  const after = await workflowTaskIdentities(ctx.client, run.paymentWorkflowId);
  const finisher = pidOf(after.at(-1) ?? '');
  const ok = run.result.outcome === 'settled' && finisher !== killed && !alive(killed);
  return { ok, detail: `payment ${run.result.outcome}; killed pid ${killed}, finished by pid ${finisher}` };
}

/** The payment waits for its authorization; the server is SIGKILLed, comes back, and the payment settles. */
export async function serverRestarted(ctx: ScenarioContext): Promise<Outcome> {
  let downSeconds = 0;
  const run = await runJourney({
    ...ctx,
    before: {
      'authorize with an assertion': async () => {
        const started = performance.now();
        process.kill(ctx.cluster.pids.server, 'SIGKILL');
        while (alive(ctx.cluster.pids.server)) await new Promise((resolve) => setTimeout(resolve, 100));
        await untilServing(ctx.address);
        downSeconds = (performance.now() - started) / 1000;
        ctx.log(
          `    SIGKILLed the Temporal server (pid ${ctx.cluster.pids.server}); serving again after ${downSeconds.toFixed(1)} s`,
        );
      },
    },
  });
  return {
    ok: run.result.outcome === 'settled' && downSeconds > 0,
    detail: `payment started before the restart ${run.result.outcome} after it; server back in ${downSeconds.toFixed(1)} s`,
  };
}

async function untilServing(address: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Every schedule the cluster applied, triggered now: each one's run completes. */
export async function schedulesFire(ctx: ScenarioContext, scheduleIds: string[]): Promise<Outcome> {
  const completed: string[] = [];
  for (const scheduleId of scheduleIds) {
    const handle = ctx.client.schedule.getHandle(scheduleId);
    const before = (await handle.describe()).info.recentActions.length;
    await handle.trigger();
    const deadline = Date.now() + 60_000;
    let action = (await handle.describe()).info.recentActions[before];
    while (!action) {
      if (Date.now() > deadline) throw new Error(`schedule ${scheduleId} did not start a run`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      action = (await handle.describe()).info.recentActions[before];
    }
    const { workflowId, firstExecutionRunId } = action.action.workflow;
    await ctx.client.workflow.getHandle(workflowId, firstExecutionRunId).result();
    completed.push(scheduleId);
  }
  return {
    ok: completed.length === scheduleIds.length && completed.length > 0,
    detail: `${completed.length} of ${scheduleIds.length} triggered runs completed (${completed.join(', ')})`,
  };
}
