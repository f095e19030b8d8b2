import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import proto from '@temporalio/proto';
import { bankEndpoints } from '../../src/bank/resources/index.js';
import { EncryptionCodec, type EncryptionKey } from '../../src/temporal/encryption.js';
import { holdCashInSignal } from '../../src/contract/cash-in-holder.js';
import {
  enrollmentWebhookSignal,
  paymentWebhookSignal,
  recurrenceWebhookSignal,
} from '../../src/contract/temporal.js';
import { isRefusedPayloadMarker } from '../../src/contract/plaintext-marker.js';
import type { ReceivedWebhook } from '../../src/contract/webhook-events.js';

const { EventType, VersioningBehavior, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;
/** Events a workflow task hands to the workflow as new work, each of which may make it emit commands. */
const newEventTypes = new Set<number>([
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  EventType.EVENT_TYPE_TIMER_FIRED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
  EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
]);
/**
 * Signals that carry a bank event into a workflow; a Pix cash-in is in its holder's history even when its
 * payment had closed (settled on the bank's GET) before the cash-in arrived.
 */
const webhookSignals = new Set([
  holdCashInSignal.name,
  enrollmentWebhookSignal.name,
  paymentWebhookSignal.name,
  recurrenceWebhookSignal.name,
]);

/** The activities that call the bank: their answers are the bank's records a journey took. */
const bankCalls = new Set(
  Object.entries(bankEndpoints)
    .filter(([, endpoint]) => endpoint.activity)
    .map(([name]) => name),
);

/** One failure of the chain a run failed with, outermost first. */
export interface FailureLink {
  /** Set when the failure is an activity's: the activity type, e.g. `getBiometricPayment`. */
  activityType?: string;
  /** An application failure's type, e.g. `BankUnauthorized`. */
  type?: string;
  message: string;
}

type ProtoFailure = proto.temporal.api.failure.v1.IFailure;

/**
 * A failure's message, read from its encrypted attributes when the worker encoded them ("Encoded failure").
 */
async function messageOf(failure: ProtoFailure, codec: EncryptionCodec): Promise<string> {
  const attributes = failure.encodedAttributes;
  if (!attributes) return failure.message ?? '';
  const [decoded] = await codec.decode([attributes]);
  const message = decoded && defaultPayloadConverter.fromPayload<{ message?: unknown }>(decoded)?.message;
  return typeof message === 'string' ? message : (failure.message ?? '');
}

async function failureChain(failure: ProtoFailure, codec: EncryptionCodec): Promise<FailureLink[]> {
  const chain: FailureLink[] = [];
  for (let link: ProtoFailure | null | undefined = failure; link && chain.length < 10; link = link.cause) {
    chain.push({
      ...(link.activityFailureInfo?.activityType?.name
        ? { activityType: link.activityFailureInfo.activityType.name }
        : {}),
      ...(link.applicationFailureInfo?.type ? { type: link.applicationFailureInfo.type } : {}),
      message: await messageOf(link, codec),
    });
  }
  return chain;
}

/** The statuses of the records a bank call answered: its record's, or those of its list's `data`. */
function statusesIn(answer: unknown): string[] {
  if (typeof answer !== 'object' || answer === null) return [];
  const { status, data } = answer as { status?: unknown; data?: unknown };
  if (typeof status === 'string') return [status];
  if (!Array.isArray(data)) return [];
  return data.flatMap((item: unknown) => {
    const itemStatus = (item as { status?: unknown } | null)?.status;
    return typeof itemStatus === 'string' ? [itemStatus] : [];
  });
}

/** One WorkflowTaskFailed event: its cause (e.g. `UNHANDLED_COMMAND`) and the failure's message. */
export interface WorkflowTaskFailure {
  cause: string;
  message: string;
}

/** One completed workflow task: the build whose worker completed it, the run's versioning behavior, when. */
export interface TaskBuild {
  /** Empty when an unversioned worker completed it. */
  buildId: string;
  behavior: 'pinned' | 'auto-upgrade' | 'unversioned';
  /** Epoch ms. */
  at: number;
}

const behaviors: Record<number, TaskBuild['behavior']> = {
  [VersioningBehavior.VERSIONING_BEHAVIOR_PINNED]: 'pinned',
  [VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE]: 'auto-upgrade',
};

const epochMs = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6);

/** What the audit reads from one run's history. */
export interface RunHistory {
  info: WorkflowExecutionInfo;
  /** `ReceivedWebhook.key` of every webhook signal in the run, decoded with the project's codec. */
  webhookKeys: string[];
  /**
   * Webhook signals whose payload bankflow did not write (in clear, or not decrypting): the workflow dropped
   * them.
   */
  refusedSignals: number;
  workflowTaskFailures: WorkflowTaskFailure[];
  /** Workflow tasks that timed out: a worker took them and died (or was too slow). */
  workflowTaskTimeouts: number;
  /** Activities whose last recorded try was not the first. */
  retriedActivities: number;
  /** Updates the run accepted (the start's own included). */
  updatesAccepted: number;
  /**
   * Updates accepted in a workflow task that also took other new events (a signal, a fired timer, an
   * activity's result): the case the SDK once replayed in another order than it recorded
   * (docs/reliability.md).
   */
  updatesSharingTask: number;
  /** What the run returned, decoded with the project's codec; absent unless it completed. */
  result?: unknown;
  /** Its completed workflow tasks, in order. */
  tasks: TaskBuild[];
  /** When it started (epoch ms), and whether a client started it, not a parent or its own continue-as-new. */
  startedAt: number;
  startedByClient: boolean;
  /** Memo keys its workflow code upserted. */
  upsertedMemoKeys: string[];
  /** The failure it closed with, outermost first; absent unless it failed. */
  failure?: FailureLink[];
  /** The status of every record the bank's answers to its bank-call activities carried, in order. */
  answeredStatuses: string[];
}

/** A run as its history starts: nothing read from it yet. */
export function emptyRunHistory(info: WorkflowExecutionInfo): RunHistory {
  return {
    info,
    webhookKeys: [],
    refusedSignals: 0,
    workflowTaskFailures: [],
    workflowTaskTimeouts: 0,
    retriedActivities: 0,
    updatesAccepted: 0,
    updatesSharingTask: 0,
    tasks: [],
    startedAt: 0,
    startedByClient: true,
    upsertedMemoKeys: [],
    answeredStatuses: [],
  };
}

async function readRun(
  client: Client,
  codec: EncryptionCodec,
  info: WorkflowExecutionInfo,
): Promise<RunHistory> {
  const history = await client.workflow.getHandle(info.workflowId, info.runId).fetchHistory();
  const run = emptyRunHistory(info);
  const activityTypes = new Map<string, string>();
  // New events since the last completed workflow task, and those the last completed task took.
  let arrived = 0;
  let takenByLastTask = 0;
  for (const event of history.events ?? []) {
    if (event.workflowTaskCompletedEventAttributes) {
      takenByLastTask = arrived;
      arrived = 0;
    } else if (newEventTypes.has(event.eventType ?? 0)) arrived++;
    if (event.workflowExecutionUpdateAcceptedEventAttributes) {
      run.updatesAccepted++;
      if (takenByLastTask > 0) run.updatesSharingTask++;
    }
    const signal = event.workflowExecutionSignaledEventAttributes;
    const payload = signal?.input?.payloads?.[0];
    if (signal && payload && webhookSignals.has(signal.signalName ?? '')) {
      const [decoded] = await codec.decode([payload]);
      const received = decoded && defaultPayloadConverter.fromPayload<ReceivedWebhook | object>(decoded);
      if (isRefusedPayloadMarker(received)) run.refusedSignals++;
      else if (received && 'key' in received) run.webhookKeys.push(received.key);
    }
    const failed = event.workflowTaskFailedEventAttributes;
    if (failed) {
      const cause = WorkflowTaskFailedCause[failed.cause ?? 0] ?? String(failed.cause);
      run.workflowTaskFailures.push({
        cause: cause.replace('WORKFLOW_TASK_FAILED_CAUSE_', ''),
        message: failed.failure?.message ?? '',
      });
    }
    const returned = event.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
    if (returned) {
      const [decoded] = await codec.decode([returned]);
      if (decoded) run.result = defaultPayloadConverter.fromPayload<unknown>(decoded);
    }
    const started = event.workflowExecutionStartedEventAttributes;
    if (started) {
      run.startedAt = epochMs(event.eventTime);
      run.startedByClient = !started.parentWorkflowExecution && !started.continuedExecutionRunId;
    }
    const completed = event.workflowTaskCompletedEventAttributes;
    if (completed) {
      run.tasks.push({
        buildId: completed.deploymentVersion?.buildId ?? '',
        behavior: behaviors[completed.versioningBehavior ?? 0] ?? 'unversioned',
        at: epochMs(event.eventTime),
      });
    }
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) activityTypes.set(String(event.eventId), scheduled.activityType?.name ?? '');
    const answered = event.activityTaskCompletedEventAttributes;
    const answer = answered?.result?.payloads?.[0];
    if (answered && answer && bankCalls.has(activityTypes.get(String(answered.scheduledEventId)) ?? '')) {
      const [decoded] = await codec.decode([answer]);
      if (decoded)
        run.answeredStatuses.push(...statusesIn(defaultPayloadConverter.fromPayload<unknown>(decoded)));
    }
    const failedWith = event.workflowExecutionFailedEventAttributes?.failure;
    if (failedWith) run.failure = await failureChain(failedWith, codec);
    const memo = event.workflowPropertiesModifiedEventAttributes?.upsertedMemo?.fields;
    if (memo) run.upsertedMemoKeys.push(...Object.keys(memo));
    if (event.workflowTaskTimedOutEventAttributes) run.workflowTaskTimeouts++;
    if ((event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1) run.retriedActivities++;
  }
  return run;
}

/** Every run of every workflow in the namespace (continued-as-new runs included), read a few at a time. */
export async function readAllHistories(client: Client, keys: EncryptionKey[]): Promise<RunHistory[]> {
  // As a worker reads them: a hostile signal (bench/chaos/hostile.ts) becomes the marker its workflow
  // refused.
  const codec = new EncryptionCodec(keys, 'mark');
  const infos: WorkflowExecutionInfo[] = [];
  for await (const info of client.workflow.list()) infos.push(info);
  const runs: RunHistory[] = [];
  let next = 0;
  const reader = async () => {
    for (let index = next++; index < infos.length; index = next++) {
      runs.push(await readRun(client, codec, infos[index] as WorkflowExecutionInfo));
    }
  };
  await Promise.all(Array.from({ length: 8 }, reader));
  return runs;
}
