import { z } from 'zod';
import { enrollmentSchema } from './enrollment.js';
import { participantSchema } from './participant.js';

/**
 * A participant as `GET /biometrics/participants?device_id=` lists it: whether the device is enrolled there and,
 * when it is, the enrollment. Without device_id both members are absent.
 */
export const participantListingSchema = participantSchema.extend({
  'enrolled?': z.boolean().optional(),
  enrollment: enrollmentSchema.nullable().optional(),
});
export type ParticipantListing = z.infer<typeof participantListingSchema>;
