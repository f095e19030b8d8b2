import type { AccountInfo, Enrollment, KnownEnrollment } from '../bank/schemas/enrollment.js';
import type { BankTrouble, PollingSettings, KeptReplies } from './journeys.js';
import type { SuggestedAccount } from '../bank/schemas/enrollment-request.js';
import type { RegisterFidoAssertion } from '../bank/schemas/fido.js';

/** The enrollment workflow's type name, as the worker registers it and callers start it. */
export const enrollmentWorkflowType = 'enrollmentWorkflow';
export type EnrollmentWorkflow = (input: EnrollmentInput) => Promise<EnrollmentResult>;

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
  /**
   * How long one run watches an authorized enrollment before it continues as new (`runLifetime`,
   * contract/journeys.ts).
   */
  maxRunMs?: number;
  /**
   * Set by continue-as-new: the journey so far, the answers given and the newest webhook keys heard (so a
   * duplicate delivered to the next run is still one), followed on in a fresh run; `unansweredHint` when a
   * webhook the run heard still waited for a read of the bank, which the next run then makes at once.
   */
  resume?: {
    journey: EnrollmentJourney;
    replies: KeptReplies<EnrollmentStarted>;
    webhookKeys?: string[];
    unansweredHint?: boolean;
    /**
     * The step before authorization the journey is in and when its window closes (epoch ms), for a run that
     * continued as new in it: the next run keeps the same window.
     */
    step?: { name: 'awaiting_account_holder_validation' | 'awaiting_enrollment'; windowEndsAt: number };
  };
}

/**
 * Where the journey stands. `authorized` is the outcome of the journey and a state the enrollment then stays
 * in until it is revoked or expires; the other four are endings.
 */
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
  /**
   * The status the bank's record shows, as the bank sent it, while it is one bankflow does not know: the
   * journey stays in its phase and shows this beside it until the bank shows a status it knows.
   */
  unknownStatus?: string;
  /** Why the bank's reads are failing, while they are (contract/journeys.ts). */
  bankTrouble?: BankTrouble;
  webhooksReceived: number;
  duplicateWebhooks: number;
  polls: number;
}

/** The journey's durable part, carried by continue-as-new to the next run. */
export interface EnrollmentJourney {
  state: EnrollmentState;
  /**
   * The enrollment as the bank's own record last showed it in a status bankflow knows (create, register or
   * its list), never a webhook's.
   */
  enrollment?: KnownEnrollment;
  /** How many merchant notifications the journey emitted: the next one's sequence follows it. */
  notified?: number;
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

/** Where an enrollment stands when its workflow starts; also the state its memo holds from the start. */
export function initialEnrollmentState(input: EnrollmentInput): EnrollmentState {
  return {
    phase: 'creating',
    deviceId: input.deviceId,
    participantId: input.participantId,
    externalId: input.externalId,
    webhooksReceived: 0,
    duplicateWebhooks: 0,
    polls: 0,
  };
}

/** The credential the device created, as the browser's WebAuthn call returned it. */
export interface RegisterRequest {
  assertion: RegisterFidoAssertion;
}

/** Personal data among an enrollment's start terms: a conflict names them without their values. */
export const sensitiveEnrollmentTerms = ['suggestedAccount'];

const minutes = (n: number) => n * 60_000;

/**
 * The bank's windows for each step of an enrollment (the Open Finance no-redirect journey's) and how the
 * workflow follows the bank meanwhile. Tests cover them with skipped time.
 */
export const enrollmentTimings = {
  accountHolderValidationMs: minutes(15),
  registrationMs: minutes(5),
  /** How long past a step's window the workflow still waits for the bank's record to move on. */
  afterWindowMs: minutes(2),
  /** How often an authorized enrollment is checked at the bank, in case a revocation webhook was lost. */
  authorizedCheckIntervalMs: 24 * minutes(60),
  /** At most this many events in one run's history. */
  historyBound: 1_000,
  /** Room left below the bound for the cycle under way and the run's ending. */
  historyHeadroom: 100,
};
