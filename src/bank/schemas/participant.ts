import { z } from 'zod';
import { uuid } from './common.js';

/** A bank participant (Pix institution) a customer can enroll with. The list is synchronized hourly by the bank. */
export const participantSchema = z.looseObject({
  id: uuid,
  integration_id: uuid,
  ispb: z.string(),
  name: z.string(),
  slug: z.string(),
  avatar: z.string(),
  status: z.string(),
  is_enrollment_available: z.boolean(),
  unavailable: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;
