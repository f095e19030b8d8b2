import type {
  BiometricPayment,
  BiometricPaymentStatus,
  KnownBiometricPayment,
} from '../bank/schemas/biometric-payment.js';
import type { BankTrouble, PollingSettings, KeptReplies } from './journeys.js';
import type { AuthorizeFidoAssertion } from '../bank/schemas/fido.js';

/** The statuses after which the bank never changes a payment again. */
export type FinalPaymentStatus = Extract<BiometricPaymentStatus, 'settled' | 'failed' | 'rejected'>;

/** The payment workflow's type name, as the worker registers it and callers start it. */
export const paymentWorkflowType = 'biometricPaymentWorkflow';
export type BiometricPaymentWorkflow = (input: PaymentInput) => Promise<PaymentResult>;

export interface PaymentInput {
  /**
   * The merchant's reference; the workflow id is `payment:<externalId>` and the bank gets it as
   * `external_id`.
   */
  externalId: string;
  enrollmentId: string;
  deviceId: string;
  amountCents: number;
  description: string;
  entityId: string;
  /** The account receiving the funds. */
  virtualAccountId: string;
  /** How long the customer has to authorize; 5 minutes by default. */
  consentWindowMs?: number;
  /** How long a settlement waits for the Pix cash-in event before the bank's GET stands in for it. */
  cashInWaitMs?: number;
  polling?: PollingSettings;
  /**
   * Set by continue-as-new: the journey so far, the answers given and the newest webhook keys heard (so a
   * duplicate delivered to the next run is still one), followed on in a fresh run.
   */
  resume?: { journey: PaymentJourney; replies: KeptReplies<PaymentCreated>; webhookKeys?: string[] };
}

/** `unknown`: the bank's record shows a status bankflow does not know (`PaymentState.unknownStatus`). */
export type PaymentPhase =
  'checking_enrollment' | 'creating' | Exclude<BiometricPaymentStatus, 'pending'> | 'unknown' | 'expired';

/**
 * A final status the bank's own record confirmed, or `expired`: the workflow stopped following before that.
 */
export type PaymentOutcome = FinalPaymentStatus | 'expired';

/** One piece of what the workflow learned about the payment, and from where. */
export interface PaymentEvidence {
  source: 'create' | 'authorize' | 'webhook' | 'cash-in webhook' | 'poll';
  status: string;
  at: string;
  detail?: string;
}

export interface PaymentState {
  phase: PaymentPhase;
  externalId: string;
  enrollmentId: string;
  paymentId?: string;
  endToEndId?: string | null;
  transactionDate?: string | null;
  consentDeadline?: string;
  authorizeAttempts: number;
  reason?: string;
  /** The status the bank's record shows, as the bank sent it, while it is one bankflow does not know. */
  unknownStatus?: string;
  /** Why the bank's reads are failing, while they are (contract/journeys.ts). */
  bankTrouble?: BankTrouble;
  evidence: PaymentEvidence[];
  webhooksReceived: number;
  duplicateWebhooks: number;
  polls: number;
}

export interface PaymentCreated {
  payment: BiometricPayment;
  /** The WebAuthn request options for the widget (`public_key_encoded`). */
  publicKeyEncoded: string;
}

/** `unknown`: the bank's answer could not be read, or shows a status bankflow does not know. */
export type AuthorizationResult =
  | { ok: true; status: BiometricPaymentStatus | 'unknown' }
  | { ok: false; status: BiometricPaymentStatus | 'unknown'; reason: string };

/**
 * The journey's durable part: what the bank itself answered and what the workflow heard. It is all a run
 * needs to go on, so continue-as-new carries it to the next run.
 */
export interface PaymentJourney {
  state: PaymentState;
  /**
   * The payment as the bank's own record last showed it in a status bankflow knows (create, authorize or
   * GET), never a webhook's copy; a status it does not know is kept in `state.unknownStatus` beside it.
   */
  payment?: KnownBiometricPayment;
  /** Whether the bank ever took the customer's assertion; a payment ending without it was never consented. */
  authorizedAtBank: boolean;
  /** End-to-end ids of the settled Pix cash-in events heard. */
  cashIns: string[];
  /** When the bank's record first showed the payment in processing: the processing wait counts from there. */
  processingSince?: string;
  /** How many merchant notifications the journey emitted: the next one's sequence follows it. */
  notified?: number;
}

interface PaymentResultDetails {
  paymentId?: string;
  endToEndId: string | null;
  transactionDate: string | null;
  reason: string;
  evidence: PaymentEvidence[];
}

/**
 * How the journey ended. A final outcome is always the final status the bank's GET showed; `expired` carries
 * the last status the bank's own record showed (null when no payment was created).
 */
export type PaymentResult =
  | (PaymentResultDetails & { outcome: FinalPaymentStatus; status: FinalPaymentStatus })
  | (PaymentResultDetails & { outcome: 'expired'; status: BiometricPaymentStatus | null });

/** Where a payment stands when its workflow starts; also the state its memo holds from the start. */
export function initialPaymentState(input: PaymentInput): PaymentState {
  return {
    phase: 'checking_enrollment',
    externalId: input.externalId,
    enrollmentId: input.enrollmentId,
    authorizeAttempts: 0,
    evidence: [],
    webhooksReceived: 0,
    duplicateWebhooks: 0,
    polls: 0,
  };
}

/** The customer's FIDO assertion, as the widget produced it. */
export interface AuthorizeRequest {
  assertion: AuthorizeFidoAssertion;
}

const minutes = (n: number) => n * 60_000;

/**
 * How long each step of a payment may take and how the workflow follows the bank meanwhile. Fixed by the
 * bank's windows, not by callers: tests cover them with skipped time.
 */
export const paymentTimings = {
  /** An enrollment the bank's reads still show pending is read again after this, doubling... */
  enrollmentRecheckMs: 1_000,
  /** ...until the wait would pass this: a lag of the bank's reads, not a journey still under way. */
  enrollmentRecheckForMs: 8_000,
  /** The bank's consent window, from creation. */
  consentWindowMs: minutes(5),
  /** How long after the consent window a payment the bank still shows awaiting consent is followed. */
  afterConsentWindowMs: minutes(60),
  /** How long a payment the bank is processing is followed. */
  processingMs: 7 * 24 * minutes(60),
  /** The first part of processing, polled as often as the consent step; after it, `sparsePolling`. */
  frequentPollingMs: minutes(60),
  /** Stretched under a saturated poll budget, never more than two hours apart (docs/decisions.md). */
  sparsePolling: {
    firstPollAfterMs: minutes(2),
    maxPollIntervalMs: minutes(30),
    stretchCeilingMs: minutes(120),
  } satisfies PollingSettings,
  /** How long a settlement waits for its Pix cash-in event before the bank's GET stands alone. */
  cashInWaitMs: minutes(1),
  /** At most this many events in one run's history; a poll cycle adds about a dozen. */
  historyBound: 1_000,
  /** Room left below the bound for the cycle under way and the run's ending. */
  historyHeadroom: 100,
};

export type PaymentTimings = typeof paymentTimings;
