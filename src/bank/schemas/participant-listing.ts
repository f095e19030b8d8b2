import { z } from 'zod';
import { uuid } from './common.js';
import { participantSchema } from './participant.js';

/**
 * A participant as `GET /biometrics/participants?device_id=` lists it: whether the device is enrolled there
 * and, when it is, the enrollment. Without device_id both members are absent. The spec shows the enrollment's
 * details only as "details": bankflow relies on its id and keeps the rest as sent.
 */
export const participantListingSchema = participantSchema.extend({
  'enrolled?': z.boolean().optional(),
  enrollment: z.looseObject({ id: uuid }).nullable().optional(),
});
export type ParticipantListing = z.infer<typeof participantListingSchema>;
