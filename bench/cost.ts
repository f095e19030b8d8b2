import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WithStartWorkflowOperation, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { createApiServer } from '../src/api/app.js';
import { mintApiKey } from '../src/api/keys.js';
import { BankClient } from '../src/bank/client.js';
import type { PaymentResult } from '../src/contract/payment.js';
import { visibilityLiteral } from '../src/temporal/visibility.js';
import {
  actionKinds,
  countActions,
  sumCounts,
  touchedTypes,
  type ActionCount,
  type ActionKind,
  type CountedRun,
} from './actions.js';
import { mapLimit, merchant, type Customer } from './customers.js';
import { bankflowJourney } from './journey.js';
import { authorizeUpdate, createdUpdate, eventSignal, skeletonJourney } from './skeleton/workflows.js';
import type { BenchStack } from './stack.js';
import { median } from './stats.js';

export interface CostSettings {
  /** Payments of each path, run one after another, each counted in a window of its own. */
  payments: number;
  /**
   * Quiet time before a payment's window opens and after it settled, before the window closes: late webhooks
   * and the workflows' last tasks land in the window they belong to.
   */
  drainMs: number;
}

export const costPaths = ['starter', 'api', 'floor'] as const;
export type CostPathName = (typeof costPaths)[number];

/** Averages per settled payment. */
export interface PerPayment {
  executions: number;
  actions: number;
  activities: number;
  timers: number;
  /** Executions started in the window still open at its end (kept for retention, waiting for late events). */
  stillOpen: number;
  byKind: Record<ActionKind, number>;
}

export interface CostPath {
  payments: number;
  /**
   * The median payment's executions and actions. A payment's count can differ by an action or two with
   * timing alone (a webhook that arrives before a poll's timer is started), so paths are compared by it.
   */
  median: { executions: number; actions: number };
  /** Payments whose Pix cash-in never reached the workflow, which then waited its cash-in wait (a timer). */
  cashInMissed: number;
  windowMs: number;
  /** Every execution the window touched, counted; `perPayment` divides it by `payments`. */
  count: ActionCount;
  perPayment: PerPayment;
}

export interface CostResult {
  settings: CostSettings;
  paths: Record<CostPathName, CostPath>;
  /** Each bankflow path per payment over the engine floor's. */
  ratios: Record<Exclude<CostPathName, 'floor'>, { executions: number; actions: number }>;
}

const amountCents = 12_345;
const description = 'Bench cost';

/** The merchant HTTP API on a free port, over the stack's client and bank, as `bankflow api` serves it. */
async function startMerchantApi(stack: BenchStack) {
  const key = mintApiKey('bench-cost');
  const app = await createApiServer({
    starter: { client: stack.client, taskQueue: stack.taskQueue },
    bank: { bank: new BankClient(stack.bank, stack.logger) },
    keys: [key.entry],
    rateLimitPerMinute: 100_000,
    logger: stack.logger,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, key: key.key, close: () => app.close() };
}

type MerchantApi = Awaited<ReturnType<typeof startMerchantApi>>;

async function apiCall(
  api: MerchantApi,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.key}`,
      ...(method === 'POST' ? { 'idempotency-key': randomUUID(), 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return { status: response.status, json };
}

/**
 * The starter path's journey over HTTP: start (the externalId derived from the Idempotency-Key), authorize
 * with the options the start answered, then long-poll the result. Answers whether the cash-in was heard.
 */
async function apiJourney(stack: BenchStack, api: MerchantApi, customer: Customer): Promise<boolean> {
  const created = await apiCall(api, 'POST', '/v1/payments', {
    enrollmentId: customer.enrollmentId,
    deviceId: customer.deviceId,
    amountCents,
    description,
    ...merchant(stack),
  });
  const externalId = String(created.json.externalId);
  const assertion = customer.authenticator.getAssertion(
    String(created.json.publicKeyEncoded),
    stack.sandbox.url,
  );
  const authorized = await apiCall(api, 'POST', `/v1/payments/${externalId}/authorization`, { assertion });
  if (authorized.json.ok !== true)
    throw new Error(`authorization refused: ${String(authorized.json.reason)}`);
  for (;;) {
    const answer = await apiCall(api, 'GET', `/v1/payments/${externalId}/result?wait=30`);
    if (answer.status !== 200) continue;
    const result = answer.json.result as PaymentResult;
    if (result.outcome !== 'settled') throw new Error(`payment ended ${result.outcome}: ${result.reason}`);
    return result.evidence.some((item) => item.source === 'cash-in webhook');
  }
}

/**
 * The skeleton's journey (bench/journey.ts's floor) one step after another: the created update with the
 * start, the five webhooks' signals as the bank would send them, the authorize update between them.
 */
async function floorPayment(client: Client, taskQueue: string, workflowId: string): Promise<boolean> {
  const workflowIdConflictPolicy = WorkflowIdConflictPolicy.USE_EXISTING;
  const start = new WithStartWorkflowOperation(skeletonJourney, {
    workflowId,
    taskQueue,
    workflowIdConflictPolicy,
  });
  await client.workflow.executeUpdateWithStart(createdUpdate, { startWorkflowOperation: start });
  const handle = client.workflow.getHandle<typeof skeletonJourney>(workflowId);
  for (const event of ['created', 'awaiting_consent']) await handle.signal(eventSignal, event);
  await handle.executeUpdate(authorizeUpdate, { args: ['assertion'] });
  for (const event of ['awaiting_payment', 'settled', 'cash-in']) await handle.signal(eventSignal, event);
  await handle.result();
  return true;
}

/**
 * The workflow runs the window may have touched: every run still open and every run closed since it opened,
 * listed again until two listings agree (visibility lags the histories a little).
 */
async function touchedRuns(
  client: Client,
  from: number,
  expectedNew: number,
): Promise<WorkflowExecutionInfo[]> {
  const since = visibilityLiteral(new Date(from).toISOString());
  const query = `ExecutionStatus = 'Running' OR CloseTime >= ${since}`;
  const list = async () => {
    const runs: WorkflowExecutionInfo[] = [];
    for await (const run of client.workflow.list({ query })) runs.push(run);
    return runs;
  };
  const keyOf = (runs: WorkflowExecutionInfo[]) =>
    runs
      .map((run) => `${run.runId}:${run.status.name}`)
      .sort()
      .join(',');
  let previous = await list();
  for (let attempt = 0; attempt < 20; attempt++) {
    await sleep(500);
    const current = await list();
    const started = current.filter((run) => run.startTime.getTime() >= from).length;
    if (keyOf(current) === keyOf(previous) && started >= expectedNew) return current;
    previous = current;
  }
  throw new Error(`visibility did not settle on the runs touched since ${since}`);
}

async function historiesOf(client: Client, runs: WorkflowExecutionInfo[]): Promise<CountedRun[]> {
  return mapLimit(runs, 8, async (run) => {
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    return { workflowType: run.type, events: history.events ?? [] };
  });
}

const perPaymentOf = (count: ActionCount, payments: number): PerPayment => ({
  executions: count.executions / payments,
  actions: count.actions / payments,
  activities: count.activities / payments,
  timers: count.timers / payments,
  stillOpen: count.stillOpen / payments,
  byKind: Object.fromEntries(actionKinds.map((kind) => [kind, count.byKind[kind] / payments])) as Record<
    ActionKind,
    number
  >,
});

/** One payment's window: every execution touched in it, counted. */
async function measurePayment(
  stack: BenchStack,
  settings: CostSettings,
  pay: () => Promise<boolean>,
): Promise<{ count: ActionCount; heard: boolean; windowMs: number }> {
  await sleep(settings.drainMs);
  const from = Date.now();
  const heard = await pay();
  await sleep(settings.drainMs);
  const to = Date.now();
  const runs = await touchedRuns(stack.client, from, 1);
  return {
    count: countActions(await historiesOf(stack.client, runs), { from, to }),
    heard,
    windowMs: to - from,
  };
}

/**
 * Runs `payments` payments of one path one after another, with nothing else running, each in a window of its
 * own, and counts what each window cost Temporal: executions started and actions visible in history
 * (bench/actions.ts), over every execution touched in it, the workflows the payments start beside their own
 * (the cash-in holders) among them.
 */
async function measurePath(
  stack: BenchStack,
  settings: CostSettings,
  pay: (index: number) => Promise<boolean>,
): Promise<CostPath> {
  const payments: Awaited<ReturnType<typeof measurePayment>>[] = [];
  for (let index = 0; index < settings.payments; index++)
    payments.push(await measurePayment(stack, settings, () => pay(index)));
  const count = sumCounts(payments.map((payment) => payment.count));
  return {
    payments: settings.payments,
    median: {
      executions: median(payments.map((payment) => payment.count.executions)),
      actions: median(payments.map((payment) => payment.count.actions)),
    },
    cashInMissed: payments.filter((payment) => !payment.heard).length,
    windowMs: payments.reduce((sum, payment) => sum + payment.windowMs, 0),
    count,
    perPayment: perPaymentOf(count, settings.payments),
  };
}

/**
 * Benchmark 7: what one settled payment costs in Temporal executions and actions, started through the starter
 * package, through the merchant HTTP API, and as the engine floor's skeleton (the same bank calls, updates
 * and signals with nothing else). The starter path is bench/journey.ts's, whose shorter cash-in wait only
 * shortens the one timer a payment waits on when its cash-in is missed; every path pays with the same
 * enrolled customer.
 */
export async function benchCost(
  stack: BenchStack,
  customer: Customer,
  settings: CostSettings,
  progress: (line: string) => void,
): Promise<CostResult> {
  const tag = `${Date.now()}`;
  const api = await startMerchantApi(stack);
  const paths = {} as Record<CostPathName, CostPath>;
  try {
    const runs: Record<CostPathName, (index: number) => Promise<boolean>> = {
      starter: (index) => bankflowJourney(stack, stack.taskQueue, customer, `bench-cost-${tag}-${index}`),
      api: () => apiJourney(stack, api, customer),
      floor: (index) =>
        floorPayment(stack.skeleton.client, stack.skeleton.taskQueue, `skeleton-cost-${tag}-${index}`),
    };
    for (const name of costPaths) {
      const path = await measurePath(stack, settings, runs[name]);
      paths[name] = path;
      const each = path.perPayment;
      progress(
        `cost ${name}: ${each.executions.toFixed(1)} executions, ${each.actions.toFixed(1)} actions, ${each.activities.toFixed(1)} activities, ${each.timers.toFixed(1)} timers per payment; by workflow type ${touchedTypes(
          path.count,
        )
          .map(([type, of]) => `${type} ${of.executions}/${of.actions}`)
          .join(', ')} (executions/actions over ${path.payments})`,
      );
    }
  } finally {
    await api.close();
  }
  const over = (name: Exclude<CostPathName, 'floor'>) => ({
    executions: paths[name].perPayment.executions / paths.floor.perPayment.executions,
    actions: paths[name].perPayment.actions / paths.floor.perPayment.actions,
  });
  return { settings, paths, ratios: { starter: over('starter'), api: over('api') } };
}
