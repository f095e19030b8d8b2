import { z } from 'zod';
import { uuid } from './common.js';
import { printable } from './printable.js';

/** `balance` is in minor units: what the card spent in the open invoice (docs/decisions.md). */
export const cardSchema = z.looseObject({
  id: uuid,
  company_id: uuid,
  entity_id: uuid,
  holder_id: uuid,
  org_id: uuid,
  balance: z.number().int(),
  display_name: z.string(),
  masked_number: printable,
  status: printable,
  type: printable,
});
export type Card = z.infer<typeof cardSchema>;
