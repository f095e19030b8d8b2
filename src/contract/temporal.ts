import { type Priority, defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Recurrence } from '../bank/schemas/recurrence.js';
import type { EnrollmentStarted, RegisterRequest, RegistrationResult } from './enrollment.js';
import type { StartTerms } from './journeys.js';
import type { AuthorizationResult, AuthorizeRequest, PaymentCreated } from './payment.js';
import type {
  AttemptsBatch,
  RecurrenceCancelRequest,
  RecurrenceResult,
  RecurrenceState,
} from './recurrence.js';
import type { ReceivedWebhook } from './webhook-events.js';

// What bankflow names in Temporal, for workers, callers and support alike: its task queues, the search
// attributes its workflows publish, and the signals, updates and queries of its journeys (the other workflow
// types' are in their own contract files). The rest of src/contract is plain data, free of Temporal, so a
// journey's pure transitions import none of it.

/**
 * The task queues a bankflow worker serves, by workload (docs/decisions.md, "Task queues by workload"):
 * - `background`: the workflow queue itself. Its workflow tasks, and the bank calls no customer waits on
 *   (sync pages, report pages, metrics), paced at the budget's background share less the poll budget. It also
 *   runs every activity a run scheduled before the workload queues existed, so none is left without a worker.
 * - `interactive`: the bank calls a customer waits on (creates, authorization and registration options,
 *   authorizes, registers), paced at the budget's interactive share, so they never queue behind the
 *   background.
 * - `polls`: the journeys' reads of the records they follow, paced at the fleet's poll budget
 *   (BANK_POLL_READS_PER_SECOND), so however many journeys are open their polls never take more of the bank.
 * - `internal`: activities that never call the bank (Temporal, the report store), with no rate limit.
 */
export const workloads = ['background', 'interactive', 'polls', 'internal'] as const;
export type Workload = (typeof workloads)[number];

/** The task queue of a workload for workflows running on `workflowQueue`. */
export function workloadTaskQueue(workflowQueue: string, workload: Workload): string {
  return workload === 'background' ? workflowQueue : `${workflowQueue}-${workload}`;
}

/** Every task queue the workers of `workflowQueue` serve, the workflow queue first. */
export const workerTaskQueues = (workflowQueue: string): string[] =>
  workloads.map((workload) => workloadTaskQueue(workflowQueue, workload));

/** The bank calls a customer waits on: the interactive queue's worker serves these and no other. */
export const interactiveBankCalls = [
  'listEnrollments',
  'createBiometricPayment',
  'getPaymentAuthorizationOptions',
  'authorizeBiometricPayment',
  'createEnrollment',
  'getRegistrationOptions',
  'registerCredential',
  'generateRecurrence',
] as const;
export type InteractiveBankCall = (typeof interactiveBankCalls)[number];

/** The reads a journey makes to follow the bank: the polls queue's worker serves these and no other. */
export const journeyPollReads = ['getBiometricPayment', 'listEnrollments', 'getCollectionAttempt'] as const;
export type JourneyPollRead = (typeof journeyPollReads)[number];

/**
 * Within the background share, the order a backlog drains in (Temporal's task priority: lower first, 3 by
 * default), where the server dispatches by priority: the pages of a sync, a report or a metrics snapshot only
 * need to finish within their window.
 */
export const backgroundPriority = {
  bulkPage: { priorityKey: 4 },
} as const satisfies Record<string, Priority>;

/**
 * Within the poll budget, where the server dispatches by priority (docs/operations.md): a read a webhook
 * asked for (the bank has news, and a customer's screen may be waiting on it) before the reads timers fall
 * due for.
 */
export const pollPriority = {
  hint: { priorityKey: 1 },
  timer: { priorityKey: 3 },
} as const satisfies Record<string, Priority>;
export type PollTrigger = keyof typeof pollPriority;

/**
 * Every business id support staff can search by in the Temporal UI. The dev server registers these at start
 * (see temporal/dev-server.ts); on a self-hosted namespace `bankflow setup` registers them, and on Temporal
 * Cloud it names the tcld command that does.
 */
export const searchAttributes = {
  kind: defineSearchAttributeKey('BankflowKind', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('BankflowStatus', SearchAttributeType.KEYWORD),
  externalId: defineSearchAttributeKey('BankflowExternalId', SearchAttributeType.KEYWORD),
  deviceId: defineSearchAttributeKey('BankflowDeviceId', SearchAttributeType.KEYWORD),
  participantId: defineSearchAttributeKey('BankflowParticipantId', SearchAttributeType.KEYWORD),
  enrollmentId: defineSearchAttributeKey('BankflowEnrollmentId', SearchAttributeType.KEYWORD),
  paymentId: defineSearchAttributeKey('BankflowPaymentId', SearchAttributeType.KEYWORD),
  boletoId: defineSearchAttributeKey('BankflowBoletoId', SearchAttributeType.KEYWORD),
  endToEndId: defineSearchAttributeKey('BankflowEndToEndId', SearchAttributeType.KEYWORD),
  recurrenceId: defineSearchAttributeKey('BankflowRecurrenceId', SearchAttributeType.KEYWORD),
  /**
   * A keyed hash of the customer's tax number (starter/customer-key.ts), never the number itself. A list of
   * one key: SQL visibility stores (the dev server's among them) hold at most 10 custom Keyword attributes,
   * and the ten above take them all; `BankflowCustomerKey = '<key>'` finds it all the same.
   */
  customerKey: defineSearchAttributeKey('BankflowCustomerKey', SearchAttributeType.KEYWORD_LIST),
  /**
   * Why the bank's reads of a journey are failing, while they are: its failure type (`BankUnauthorized`,
   * `BankUnavailable`, `BankInvalidResponse`, ...; contract/journeys.ts). A list, for the same reason as
   * the customer key: `BankflowBankTrouble = 'BankUnauthorized'` finds the journeys a credential rotation
   * holds.
   */
  bankTrouble: defineSearchAttributeKey('BankflowBankTrouble', SearchAttributeType.KEYWORD_LIST),
} as const;

/** The value of `BankflowBankTrouble` for a journey's state: its trouble's type, or none. */
export const bankTroubleValue = (state: { bankTrouble?: { type: string } }): string[] =>
  state.bankTrouble ? [state.bankTrouble.type] : [];

export const allSearchAttributeKeys = Object.values(searchAttributes);

/** A search attribute's type as the Temporal CLI and tcld spell it: `Keyword`, `KeywordList`. */
export const searchAttributeTypeName = (type: string): string =>
  type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * The workflow types that live past a deploy: each continues as new onto the deployment's current version at
 * its first workflow task after that version changed (src/workflows/shared/journey-run.ts). Every other
 * type's runs are short and finish on the version they started on.
 */
export const longLivedWorkflowTypes = [
  'enrollmentWorkflow',
  'recurrenceWorkflow',
  'merchantNotificationsWorkflow',
  'cashInHolderWorkflow',
  'unmatchedWebhookWorkflow',
] as const;

/**
 * Asks a long-lived run for a workflow task and nothing else. Temporal wakes no idle pinned run when a new
 * version becomes current, so `bankflow deployments move` sends this to the runs still pinned to an old
 * version: the task it makes is where each finds the new version and continues as new onto it, and the old
 * version drains now rather than within the day.
 */
export const versionCheckSignal = defineSignal('versionCheck');

/**
 * Starts the payment and answers once it exists at the bank, with its authorization options. Sent with the
 * workflow's start (update-with-start) by every start under the external id: a repeated start with the same
 * terms joins the running workflow and gets the same answer, one with other terms is refused by the
 * validator.
 */
export const paymentCreatedUpdate = defineUpdate<PaymentCreated, [StartTerms]>('paymentCreated');
/** Fresh authorization options, e.g. after the customer reloaded the page; refused once the window closed. */
export const authorizationOptionsUpdate = defineUpdate<string>('authorizationOptions');
/** Submits the FIDO assertion; answers the new status, or the bank's reason for refusing it. */
export const authorizeUpdate = defineUpdate<AuthorizationResult, [AuthorizeRequest]>('authorize');
/** `initiation_document` and Pix cash-in (`collecting_document`) webhooks, routed by the receiver. */
export const paymentWebhookSignal = defineSignal<[ReceivedWebhook]>('paymentWebhook');

/**
 * Starts the enrollment and answers once the bank created it: the redirect URL the customer must open. Sent
 * with the workflow's start (update-with-start) by every start of the device with the participant: a repeated
 * start with the same terms joins the running workflow and gets the same answer, one with other terms is
 * refused.
 */
export const enrollmentStartedUpdate = defineUpdate<EnrollmentStarted, [StartTerms]>('enrollmentStarted');
/** Fresh WebAuthn creation options (`public_key_encoded`); waits for the registration step if asked early. */
export const registrationOptionsUpdate = defineUpdate<string>('registrationOptions');
/** Registers the credential the device created; a bank refusal is an answer too, and can be retried. */
export const registerCredentialUpdate = defineUpdate<RegistrationResult, [RegisterRequest]>(
  'registerCredential',
);
/** A `pix_biometrics_enrollment` webhook, routed by the receiver. */
export const enrollmentWebhookSignal = defineSignal<[ReceivedWebhook]>('enrollmentWebhook');

/**
 * The state with its attempts; answered by the workflow, so it reflects every event the history holds. The
 * only read callers ask the workflow itself: its attempt table is too large for the memo.
 */
export const recurrenceStateQuery = defineQuery<RecurrenceState>('recurrenceState');
/**
 * Starts the recurrence and answers once the bank generated it (or refused it, as a failure with the bank's
 * reason). Sent with the workflow's start by every start under the external id; other terms are refused.
 */
export const recurrenceGeneratedUpdate = defineUpdate<Recurrence, [StartTerms]>('recurrenceGenerated');
/** Attempts found by the attempts sync, one batch per recurrence per batch of pages. */
export const recurrenceAttemptsSignal = defineSignal<[AttemptsBatch]>('recurrenceAttempts');
/** A `recurrence_collection_attempt` webhook, routed by the receiver. */
export const recurrenceWebhookSignal = defineSignal<[ReceivedWebhook]>('recurrenceWebhook');
/**
 * The merchant cancels the recurrence, with a reason: the workflow stops following it and ends, and the
 * update answers the workflow's result. Refused, naming the field, for a missing, blank or too long reason,
 * and for a recurrence that has already ended.
 */
export const cancelRecurrenceUpdate = defineUpdate<RecurrenceResult, [RecurrenceCancelRequest]>(
  'cancelRecurrence',
);
