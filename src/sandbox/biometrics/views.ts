import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { BiometricsState, EnrollmentEntry } from './state.js';

/** An enrollment as list responses show it: with its participant. */
export function listedEnrollment(state: BiometricsState, entry: EnrollmentEntry): Enrollment {
  return { ...entry.record, participant: state.partiesOf(entry).participant };
}

/** A device's enrollments, newest first. */
export function listedEnrollmentsOfDevice(state: BiometricsState, deviceId: string): Enrollment[] {
  return state
    .enrollmentsOfDevice(deviceId)
    .sort((a, b) => b.record.inserted_at.localeCompare(a.record.inserted_at))
    .map((entry) => listedEnrollment(state, entry));
}
