import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BiometricPayment, BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import type { KeptReplies } from '../shared/merchant-requests.js';
import type { PollingSettings } from '../shared/polling.js';
import type { StartTerms } from '../shared/start-terms.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import type { FinalPaymentStatus } from './status.js';

export interface PaymentInput {
  /** The merchant's reference; the workflow id is `payment:<externalId>` and the bank gets it as `external_id`. */
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
  /** Set by continue-as-new: the journey so far and the answers given, followed on in a fresh run. */
  resume?: { journey: PaymentJourney; replies: KeptReplies<PaymentCreated> };
}

export type PaymentPhase =
  'checking_enrollment' | 'creating' | Exclude<BiometricPaymentStatus, 'pending'> | 'expired';

/** A final status the bank's own record confirmed, or `expired`: the workflow stopped following before that. */
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

export type AuthorizationResult =
  | { ok: true; status: BiometricPaymentStatus }
  | { ok: false; status: BiometricPaymentStatus | 'unknown'; reason: string };

/**
 * The journey's durable part: what the bank itself answered and what the workflow heard. It is all a run needs to
 * go on, so continue-as-new carries it to the next run.
 */
export interface PaymentJourney {
  state: PaymentState;
  /** The payment as the bank's own record last showed it (create, authorize or GET), never a webhook's copy. */
  payment?: BiometricPayment;
  /** Whether the bank ever took the customer's assertion; a payment ending without it was never consented. */
  authorizedAtBank: boolean;
  /** End-to-end ids of the settled Pix cash-in events heard. */
  cashIns: string[];
  /** When the bank's record first showed the payment in processing: the processing wait counts from there. */
  processingSince?: string;
}

interface PaymentResultDetails {
  paymentId?: string;
  endToEndId: string | null;
  transactionDate: string | null;
  reason: string;
  evidence: PaymentEvidence[];
}

/**
 * How the journey ended. A final outcome is always the final status the bank's GET showed; `expired` carries the
 * last status the bank's own record showed (null when no payment was created).
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

/**
 * Starts the payment and answers once it exists at the bank, with its authorization options. Sent with the
 * workflow's start (update-with-start) by every start under the external id: a repeated start with the same terms
 * joins the running workflow and gets the same answer, one with other terms is refused by the validator.
 */
export const paymentCreatedUpdate = defineUpdate<PaymentCreated, [StartTerms]>('paymentCreated');
/** Fresh authorization options, e.g. after the customer reloaded the page; refused once the window closed. */
export const authorizationOptionsUpdate = defineUpdate<string>('authorizationOptions');
/** Submits the FIDO assertion; answers the new status, or the bank's reason for refusing it. */
/** The customer's FIDO assertion, as the widget produced it. */
export interface AuthorizeRequest {
  assertion: AuthorizeFidoAssertion;
}
export const authorizeUpdate = defineUpdate<AuthorizationResult, [AuthorizeRequest]>('authorize');
/** `initiation_document` and Pix cash-in (`collecting_document`) webhooks, routed by the receiver. */
export const paymentWebhookSignal = defineSignal<[ReceivedWebhook]>('paymentWebhook');
