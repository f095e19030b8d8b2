import type { Enrollment, EnrollmentStatus } from '../../bank/schemas/enrollment.js';
import type { EnrollmentJourney } from '../../contract/enrollment.js';
import type { NotificationType } from '../../contract/notifications.js';
import { JourneyNotifier } from '../shared/notifications.js';

/** The statuses of the bank's record the merchant acts on: it may charge the enrollment, or no longer. */
const statusNotifications: Partial<Record<EnrollmentStatus, NotificationType>> = {
  authorized: 'enrollment.authorized',
  revoked: 'enrollment.revoked',
};

/**
 * The event the journey owes the merchant when it adopts the bank's record with a status after `previous`.
 */
export function enrollmentNotification(
  previous: EnrollmentStatus | undefined,
  { enrollment }: EnrollmentJourney,
): NotificationType | undefined {
  return enrollment && enrollment.status !== previous ? statusNotifications[enrollment.status] : undefined;
}

/** The fields of the bank's record a notification carries: not the customer's account. */
export const notifiedEnrollment = (enrollment: Enrollment) => ({
  id: enrollment.id,
  external_id: enrollment.external_id,
  status: enrollment.status,
  device_id: enrollment.device_id,
  participant_id: enrollment.participant_id,
  expiration_datetime: enrollment.expiration_datetime,
  inserted_at: enrollment.inserted_at,
  updated_at: enrollment.updated_at,
});

/** An enrollment journey's notifications: what adopting the bank's record owes the merchant. */
export class EnrollmentNotifier extends JourneyNotifier {
  /** Emits the event adopting `journey`'s record, moved on from `previous`, owes, if any. */
  adopted(previous: EnrollmentStatus | undefined, journey: EnrollmentJourney): void {
    const type = enrollmentNotification(previous, journey);
    const { enrollment } = journey;
    if (type && enrollment)
      this.emit({ type: 'enrollment', id: enrollment.id }, type, notifiedEnrollment(enrollment));
  }
}
