import { endpoint, optionalQuery } from '../resource.js';
import { participantListingSchema } from '../schemas/participant-listing.js';

/**
 * The Pix participants a customer can enroll with; read by the starter before a journey starts, so no
 * activity.
 */
export const participants = {
  /** GET /biometrics/participants — with `device_id`, enrolled participants first. */
  listParticipants: endpoint({
    method: 'GET',
    route: '/biometrics/participants',
    request: optionalQuery<{ device_id?: string }>(),
    record: participantListingSchema,
    answers: 'page',
    activity: false,
  }),
};
