import type { Enrollment } from '../../../src/bank/schemas/enrollment.js';
import type { LaggedReads } from '../lagged-reads.js';
import type { BiometricsState, EnrollmentEntry, EnrollmentRecord } from './state.js';

/** An enrollment as list responses show it: with its participant. */
export function listedEnrollment(state: BiometricsState, entry: EnrollmentEntry): Enrollment {
  return { ...entry.record, participant: state.partiesOf(entry).participant };
}

/** A device's enrollments as the bank's reads show them (they may lag, see LaggedReads). */
export function readEnrollmentsOfDevice(
  state: BiometricsState,
  reads: LaggedReads,
  deviceId: string,
): { entry: EnrollmentEntry; record: EnrollmentRecord }[] {
  return state.enrollmentsOfDevice(deviceId).flatMap((entry) => {
    const record = reads.enrollment(entry.record);
    return record ? [{ entry, record }] : [];
  });
}

/** A device's enrollments as the bank's reads show them, newest first. */
export function listedEnrollmentsOfDevice(
  state: BiometricsState,
  reads: LaggedReads,
  deviceId: string,
): Enrollment[] {
  return readEnrollmentsOfDevice(state, reads, deviceId)
    .sort((a, b) => b.record.inserted_at.localeCompare(a.record.inserted_at))
    .map(({ entry, record }) => ({ ...record, participant: state.partiesOf(entry).participant }));
}
