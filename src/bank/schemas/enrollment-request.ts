import { z } from 'zod';
import { uuid } from './common.js';
import { printable, printableOnly } from './printable.js';

export const enrollmentAccountTypes = ['checking', 'payment', 'salary', 'savings'] as const;

/** The account the merchant suggests (guide form). The bank may accept or ignore it. */
export const suggestedAccountSchema = z.looseObject({
  ispb: z.string().regex(/^\d{8}$/, 'an ISPB is 8 digits'),
  issuer: printable.min(1),
  number: printable.min(1),
  account_type: z.enum(enrollmentAccountTypes).optional(),
});
export type SuggestedAccount = z.infer<typeof suggestedAccountSchema>;

const referenceAccountFields = ['account_branch', 'account_digit', 'account_number', 'account_type'] as const;

/**
 * `POST /banking/cashin/pix/biometrics/enrollments`: the guide form (device, participant, return_to_url
 * required), which also accepts the reference form's flat `account_*` suggestion. The two suggestion forms
 * are exclusive.
 */
export const createEnrollmentRequestSchema = z
  .looseObject({
    device_id: uuid,
    participant_id: uuid,
    return_to_url: z.url().check(printableOnly()),
    external_id: printable.min(1).optional(),
    account_info: suggestedAccountSchema.optional(),
    account_branch: printable.min(1).optional(),
    account_digit: printable.optional(),
    account_number: printable.min(1).optional(),
    account_type: z.enum(enrollmentAccountTypes).optional(),
  })
  .superRefine((request, ctx) => {
    const flat = referenceAccountFields.filter((field) => request[field] !== undefined);
    if (flat.length === 0) return;
    if (request.account_info !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['account_info'],
        message: `give either account_info or ${flat.join(', ')}, not both`,
      });
    }
    for (const field of ['account_branch', 'account_number'] as const) {
      if (request[field] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `is required when ${flat.join(', ')} is given`,
        });
      }
    }
  });
export type CreateEnrollmentRequest = z.infer<typeof createEnrollmentRequestSchema>;
