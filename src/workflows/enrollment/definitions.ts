import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AccountInfo, Enrollment } from '../../bank/schemas/enrollment.js';
import type { SuggestedAccount } from '../../bank/schemas/enrollment-request.js';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import type { PollingSettings } from '../shared/polling.js';
import type { ReceivedWebhook } from '../webhook-events.js';

export interface EnrollmentInput {
  deviceId: string;
  participantId: string;
  /** Where the bank sends the customer back after the biometric registration. */
  returnToUrl: string;
  /** Sent to the bank as `external_id`, so a retried create cannot make a second enrollment. */
  externalId: string;
  suggestedAccount?: SuggestedAccount;
  /** Open Finance no-redirect journey defaults: 15 minutes for the account holder, 5 for the registration. */
  deadlines?: { accountHolderValidationMs?: number; registrationMs?: number };
  polling?: PollingSettings;
  /** How often an authorized enrollment is checked at the bank, in case a revocation webhook was lost. */
  authorizedCheckIntervalMs?: number;
  /** Set by continue-as-new: the authorized enrollment being watched and the journey so far. */
  resume?: { enrollment: Enrollment; state: EnrollmentState };
}

/** Where the journey stands. `authorized` is the outcome of the journey and a state the enrollment then stays
 * in until it is revoked or expires; the other four are endings. */
export type EnrollmentPhase =
  | 'creating'
  | 'awaiting_account_holder_validation'
  | 'awaiting_enrollment'
  | 'authorized'
  | 'rejected'
  | 'revoked'
  | 'expired'
  | 'blocked';

export type EnrollmentOutcome = Extract<
  EnrollmentPhase,
  'authorized' | 'rejected' | 'revoked' | 'expired' | 'blocked'
>;

export interface EnrollmentState {
  phase: EnrollmentPhase;
  deviceId: string;
  participantId: string;
  externalId: string;
  enrollmentId?: string;
  redirectUrl?: string;
  expirationDatetime?: string | null;
  accountInfo?: AccountInfo | null;
  /** Why the journey ended the way it did, in words for support staff. */
  reason?: string;
  webhooksReceived: number;
  duplicateWebhooks: number;
  polls: number;
}

export interface EnrollmentStarted {
  enrollmentId: string;
  redirectUrl: string;
  status: Enrollment['status'];
  expirationDatetime: string | null;
}

export type RegistrationResult =
  | { ok: true; status: Enrollment['status']; enrollment: Enrollment }
  | { ok: false; reason: string; errors: unknown[] };

export interface EnrollmentResult {
  outcome: EnrollmentOutcome;
  reason: string;
  enrollment?: Enrollment;
}

export const enrollmentStateQuery = defineQuery<EnrollmentState>('enrollmentState');
/** Answers once the journey has an outcome: authorized, or ended (rejected, revoked, expired, blocked). */
export const enrollmentOutcomeUpdate = defineUpdate<EnrollmentResult>('enrollmentOutcome');
/** Answers once the bank created the enrollment: the redirect URL the customer must open. */
export const enrollmentStartedUpdate = defineUpdate<EnrollmentStarted>('enrollmentStarted');
/** Fresh WebAuthn creation options (`public_key_encoded`), once the account holder authorized at the bank. */
export const registrationOptionsUpdate = defineUpdate<string>('registrationOptions');
/** Registers the credential the device created; a refusal carries the bank's reason and can be retried. */
export const registerCredentialUpdate = defineUpdate<RegistrationResult, [RegisterFidoAssertion]>(
  'registerCredential',
);
/** A `pix_biometrics_enrollment` webhook, routed by the receiver. */
export const enrollmentWebhookSignal = defineSignal<[ReceivedWebhook]>('enrollmentWebhook');
