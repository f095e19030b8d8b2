import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BiometricPayment, BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { defineMerchantRequest } from '../shared/merchant-requests.js';
import type { PollingSettings } from '../shared/polling.js';
import type { ReceivedWebhook } from '../webhook-events.js';

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
}

export type PaymentPhase =
  'checking_enrollment' | 'creating' | Exclude<BiometricPaymentStatus, 'pending'> | 'expired';

export type PaymentOutcome = Extract<PaymentPhase, 'settled' | 'failed' | 'rejected' | 'expired'>;

/** One piece of what the workflow learned about the payment, and from where. */
export interface PaymentEvidence {
  source: 'create' | 'authorize' | 'webhook' | 'cash-in webhook' | 'poll' | 'confirmation';
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

export interface PaymentResult {
  outcome: PaymentOutcome;
  status: BiometricPaymentStatus | 'expired';
  paymentId?: string;
  endToEndId: string | null;
  transactionDate: string | null;
  reason: string;
  evidence: PaymentEvidence[];
}

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

/** Answers workflows started before the state was published in the memo (`memoKeys.state`). */
export const paymentStateQuery = defineQuery<PaymentState>('paymentState');
/**
 * Answers once the payment exists at the bank, with its authorization options. Sent only with the workflow's
 * start (see shared/merchant-requests.ts); the same answer is kept as the start reply for callers that join.
 */
export const paymentCreatedUpdate = defineUpdate<PaymentCreated>('paymentCreated');
/** Fresh authorization options, e.g. after the customer reloaded the page. */
export const authorizationOptionsRequest = defineMerchantRequest<object, string>(
  'authorizationOptionsRequested',
);
/** Submits the FIDO assertion; answers the new status, or the bank's reason for refusing it. */
export const authorizationRequest = defineMerchantRequest<
  { assertion: AuthorizeFidoAssertion },
  AuthorizationResult
>('assertionSubmitted');
/** `initiation_document` and Pix cash-in (`collecting_document`) webhooks, routed by the receiver. */
export const paymentWebhookSignal = defineSignal<[ReceivedWebhook]>('paymentWebhook');
