import { z } from 'zod';
import { uuid } from './common.js';
import { pixText } from './text.js';
import { printable, printableOnly } from './printable.js';

/** `POST .../enrollments/{enrollment_id}/payments`; the amount is a bare integer in cents. */
export const createBiometricPaymentRequestSchema = z.looseObject({
  entity_id: uuid,
  virtual_account_id: uuid,
  amount: z.number().int().positive(),
  description: pixText().check(printableOnly()),
  external_id: printable.min(1).optional(),
});
export type CreateBiometricPaymentRequest = z.infer<typeof createBiometricPaymentRequestSchema>;
