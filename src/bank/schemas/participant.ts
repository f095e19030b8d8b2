import { z } from 'zod';
import { uuid } from './common.js';
import { printable } from './printable.js';

/**
 * A bank participant (Pix institution) a customer can enroll with. The list is synchronized hourly by the
 * bank.
 */
export const participantSchema = z.looseObject({
  id: uuid,
  integration_id: uuid,
  ispb: printable,
  name: z.string(),
  slug: printable,
  avatar: printable,
  status: printable,
  is_enrollment_available: z.boolean(),
  unavailable: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;
