import { z } from 'zod';
import { dateTime, uuid } from './common.js';
import { printable } from './printable.js';

/**
 * One step of a record's history: refund stages (spec) and collection-attempt stages (shape assumed the
 * same).
 */
export const stageSchema = z.looseObject({
  id: uuid,
  status: printable,
  error_code: printable.nullable(),
  error_message: z.string().nullable(),
  inserted_at: dateTime,
});
export type Stage = z.infer<typeof stageSchema>;
