import { sleep, type ActivityOptions } from '@temporalio/workflow';
import { isKnownEnrollmentStatus } from '../../bank/vocabulary.js';
import { type PollTrigger } from '../../contract/temporal.js';
import { type PaymentInput, type PaymentJourney, paymentTimings } from '../../contract/payment.js';
import { windowClosed } from '../shared/follow-bank.js';
import type { Activities } from '../../activities/index.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import {
  bankCallOptions,
  boundedBy,
  checkReadOptions,
  customerWriteOptions,
  interactiveActivities,
  internalActivities,
  journeyReadOptions,
  pollActivities,
} from '../activity-options.js';

// The bank calls a payment makes, each with its activity options: the reads that follow its record, the
// writes a customer waits on, and the windows (`CallWindows`) that bound them.

type BankWrites = Pick<
  Activities,
  'createBiometricPayment' | 'getPaymentAuthorizationOptions' | 'authorizeBiometricPayment'
>;
type BankReads = Pick<Activities, 'listEnrollments' | 'getBiometricPayment'>;

/**
 * The bank's reads: the enrollment check the start waits on is interactive, the payment's reads on the poll
 * budget. Each `options` retries briefly: a read that waits minutes would keep the journey from its next
 * hint.
 */
const readsWith = (options: ActivityOptions): BankReads => ({
  listEnrollments: interactiveActivities<'listEnrollments'>(options).listEnrollments,
  getBiometricPayment: pollActivities<'getBiometricPayment'>(options).getBiometricPayment,
});

/** The payment's polls by what asked for them: a webhook's go ahead of the timers' within the poll budget. */
export const paymentPolls: Record<PollTrigger, Pick<BankReads, 'getBiometricPayment'>> = {
  hint: pollActivities<'getBiometricPayment'>(journeyReadOptions, 'hint'),
  timer: pollActivities<'getBiometricPayment'>(journeyReadOptions, 'timer'),
};

/**
 * The bank's calls a customer waits on, given up once `deadline` (workflow time) passes. Each write carries
 * what makes a retry safe (external id, one payment).
 */
export interface BankCalls {
  bank: BankWrites;
  bankReads: BankReads;
}

export const boundedCalls = (deadline: number): BankCalls => ({
  bank: interactiveActivities<keyof BankWrites>(boundedBy(customerWriteOptions, deadline, Date.now())),
  bankReads: readsWith(boundedBy(checkReadOptions, deadline, Date.now())),
});

/** Temporal's own records: the claim on the cash-ins of the payment's end-to-end id. */
export const temporal = internalActivities<Pick<Activities, 'claimCashIns'>>(bankCallOptions);

/**
 * The payment the bank is asked to create; its external id makes a retried create answer the same payment.
 */
export const createRequest = (input: PaymentInput) => ({
  entity_id: input.entityId,
  virtual_account_id: input.virtualAccountId,
  amount: input.amountCents,
  description: input.description,
  external_id: input.externalId,
});

/**
 * Why the enrollment cannot pay, or undefined when the bank shows it authorized. The bank's reads may lag a
 * moment behind an authorization the merchant already heard of, so an enrollment still shown pending (or not
 * yet listed) is read again briefly. One in a status bankflow does not know is neither authorized nor
 * refused: it is read again until the start's window closes, which ends the start as unreachable (`calls` are
 * bounded by it).
 */
export async function enrollmentRefusal(input: PaymentInput, calls: BankCalls): Promise<string | undefined> {
  let enrollment: Enrollment | undefined;
  for (let waitMs = paymentTimings.enrollmentRecheckMs; ; waitMs *= 2) {
    const enrollments = await calls.bankReads.listEnrollments({ device_id: input.deviceId });
    enrollment = enrollments.data.find((candidate) => candidate.id === input.enrollmentId);
    if (enrollment?.status === 'authorized') return undefined;
    if (enrollment && !isKnownEnrollmentStatus(enrollment.status)) {
      await sleep(Math.min(waitMs, paymentTimings.enrollmentRecheckForMs));
      continue;
    }
    const mayStillShow = !enrollment || enrollment.status.startsWith('awaiting_');
    if (!mayStillShow || waitMs > paymentTimings.enrollmentRecheckForMs) break;
    await sleep(waitMs);
  }
  return enrollment
    ? `enrollment ${input.enrollmentId} is ${enrollment.status}, not authorized: enroll the device again before paying`
    : `enrollment ${input.enrollmentId} does not exist for device ${input.deviceId}`;
}

/**
 * The bank calls a customer waits on end with the window they belong to: the start's (the enrollment check,
 * the create and its authorization options) with a consent window counted from the start, an authorization
 * and fresh options with the payment's consent window. A start the bank could not serve in its window ends
 * the workflow as BankUnreachable, and nothing is sent to the bank for it afterwards.
 */
export const unreachable = {
  start:
    'the bank could not be reached within the consent window; nothing more is sent to it for this payment: pay again with a new external id',
  consent: 'the bank could not be reached before the consent window closed',
};

/** The windows a payment's customer-facing bank calls end with. */
export class CallWindows {
  /** When the start's calls give up: a consent window from the workflow's start, in workflow time. */
  private readonly startDeadline: number;

  constructor(input: PaymentInput) {
    this.startDeadline = Date.now() + (input.consentWindowMs ?? paymentTimings.consentWindowMs);
  }

  /** The calls of the start: the enrollment check, the create and the first authorization options. */
  start(): BankCalls {
    return boundedCalls(this.startDeadline);
  }

  /** The calls the customer makes while the consent window is open: fresh options, an authorization. */
  consent(journey: PaymentJourney): BankCalls {
    const deadline = Date.parse(journey.state.consentDeadline ?? '');
    return boundedCalls(deadline);
  }

  /** Whether `error` is one of this run's calls given up at the end of its window. */
  closed(error: unknown): boolean {
    return windowClosed(error);
  }
}
