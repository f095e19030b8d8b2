import type { AccountInfo, KnownEnrollment } from '../../../src/bank/schemas/enrollment.js';
import type { KnownBiometricPayment } from '../../../src/bank/schemas/biometric-payment.js';
import type { Device } from '../../../src/bank/schemas/device.js';
import type { Participant } from '../../../src/bank/schemas/participant.js';
import { seededRandomFor } from '../seed/random.js';
import { seedParticipants } from '../seed/participants.js';
import type { StoredCredential } from '../webauthn.js';

export interface BiometricsSettings {
  /** How long after its creation a payment can be authorized. */
  consentWindowMs: number;
  /** From authorization to the bank's final answer; null leaves it to the control API. */
  settlementDelayMs: number | null;
  /** How long a new enrollment waits for the customer to authorize at the bank before it becomes inactive. */
  accountHolderValidationWindowMs: number;
  /** How long an enrollment authorized at the bank waits for the credential before it becomes inactive. */
  registrationWindowMs: number;
}

/** Open Finance's no-redirect journey windows: 15 minutes at the bank, 5 for the biometric registration. */
export const defaultBiometricsSettings: BiometricsSettings = {
  consentWindowMs: 5 * 60_000,
  settlementDelayMs: 1_000,
  accountHolderValidationWindowMs: 15 * 60_000,
  registrationWindowMs: 5 * 60_000,
};

export type DeviceRecord = Device & {
  fingerprint: string;
  counterparty_tax_number: string;
  inserted_at: string;
  updated_at: string;
};

export interface DeviceEntry {
  record: DeviceRecord;
  /** The payer behind the device, as payments name it. */
  counterpartyId: string;
}

/**
 * Stored without its participant, which list responses add; always with the account, which the spec has
 * present in create and register answers.
 */
export type EnrollmentRecord = KnownEnrollment & { account_info: AccountInfo };

export interface EnrollmentEntry {
  record: EnrollmentRecord;
  /** Where the hosted pages send the customer back to. */
  returnToUrl: string;
  /** The merchant's suggestion in the bank's account shape; the bank authorizes it unless told otherwise. */
  suggestedAccount: AccountInfo | null;
  /** When the current waiting step ends, in epoch ms; null when nothing is awaited. */
  expiresAt: number | null;
  credentials: StoredCredential[];
  /** The challenge of the latest registration options; cleared once a credential is registered. */
  registrationChallenge: string | null;
  /** The create body, to tell a repeated create under the same external_id from another request. */
  request: Record<string, unknown>;
}

export interface AuthorizeCalls {
  successful: number;
  refused: number;
}

export interface PaymentEntry {
  record: KnownBiometricPayment;
  enrollmentId: string;
  consentDeadline: number;
  /** Set when the consent window closed before an assertion was accepted. */
  consentExpired: boolean;
  /** The challenge of the latest authorization options; cleared once an assertion is accepted. */
  challenge: string | null;
  authorizeCalls: AuthorizeCalls;
  /** The create body, to tell a repeated create under the same external_id from another request. */
  request: Record<string, unknown>;
}

const deviceKey = (fingerprint: string, taxNumber: string) => `${fingerprint}\u0000${taxNumber}`;

/**
 * An external_id is unique within its scope: an enrollment's within its device, a payment's within its
 * enrollment.
 */
const scopedKey = (scope: string, externalId: string) => `${scope}\u0000${externalId}`;

/** What the sandbox bank knows about Pix biometrics; `reset()` restores the seeded state and settings. */
export class BiometricsState {
  participants: Participant[] = [];
  devices = new Map<string, DeviceEntry>();
  enrollments = new Map<string, EnrollmentEntry>();
  payments = new Map<string, PaymentEntry>();
  private devicesByKey = new Map<string, DeviceEntry>();
  private enrollmentsByExternalId = new Map<string, EnrollmentEntry>();
  private paymentsByExternalId = new Map<string, PaymentEntry>();
  settings: BiometricsSettings = { ...defaultBiometricsSettings };
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly seed: number,
    private readonly initialSettings: Partial<BiometricsSettings> = {},
  ) {
    this.reset();
  }

  reset(): void {
    this.dispose();
    this.participants = seedParticipants(seededRandomFor(this.seed, 'participants'));
    this.devices = new Map();
    this.enrollments = new Map();
    this.payments = new Map();
    this.devicesByKey = new Map();
    this.enrollmentsByExternalId = new Map();
    this.paymentsByExternalId = new Map();
    this.settings = { ...defaultBiometricsSettings, ...this.initialSettings };
  }

  /** Runs `action` after `delayMs` unless the state is reset or the sandbox stops first. */
  schedule(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Runs `action` once the wall clock reaches `at`. A timer may fire a millisecond before `Date.now()` says
   * its delay is over (timers run on a monotonic clock), and an action that checks the deadline would then do
   * nothing.
   */
  scheduleAt(at: number, action: () => void): void {
    this.schedule(Math.max(0, at - Date.now()), () => {
      if (Date.now() < at) this.scheduleAt(at, action);
      else action();
    });
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  participant(id: string): Participant | undefined {
    return this.participants.find((participant) => participant.id === id);
  }

  /** The participant and device an enrollment was created with; both outlive it. */
  partiesOf(entry: EnrollmentEntry): { participant: Participant; device: DeviceEntry } {
    const participant = this.participant(entry.record.participant_id);
    const device = this.devices.get(entry.record.device_id);
    if (!participant || !device)
      throw new Error(`enrollment ${entry.record.id} lost its participant or device`);
    return { participant, device };
  }

  findDevice(fingerprint: string, taxNumber: string): DeviceEntry | undefined {
    return this.devicesByKey.get(deviceKey(fingerprint, taxNumber));
  }

  addDevice(entry: DeviceEntry): void {
    this.devices.set(entry.record.id, entry);
    this.devicesByKey.set(deviceKey(entry.record.fingerprint, entry.record.counterparty_tax_number), entry);
  }

  enrollmentByExternalId(deviceId: string, externalId: string): EnrollmentEntry | undefined {
    return this.enrollmentsByExternalId.get(scopedKey(deviceId, externalId));
  }

  addEnrollment(entry: EnrollmentEntry): void {
    this.enrollments.set(entry.record.id, entry);
    const { device_id: deviceId, external_id: externalId } = entry.record;
    if (externalId !== null) this.enrollmentsByExternalId.set(scopedKey(deviceId, externalId), entry);
  }

  paymentByExternalId(enrollmentId: string, externalId: string): PaymentEntry | undefined {
    return this.paymentsByExternalId.get(scopedKey(enrollmentId, externalId));
  }

  addPayment(entry: PaymentEntry): void {
    this.payments.set(entry.record.id, entry);
    const externalId = entry.record.external_id;
    if (externalId !== null) this.paymentsByExternalId.set(scopedKey(entry.enrollmentId, externalId), entry);
  }

  enrollmentsOfDevice(deviceId: string): EnrollmentEntry[] {
    return [...this.enrollments.values()].filter((entry) => entry.record.device_id === deviceId);
  }
}
