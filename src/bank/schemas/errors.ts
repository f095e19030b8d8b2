import { z } from 'zod';

/** Single-error form: transfer list, refunds, boleto cancel, metrics. */
export const singleErrorBodySchema = z.looseObject({
  error: z.looseObject({
    error_code: z.string(),
    error_message: z.string(),
  }),
});
export type SingleErrorBody = z.infer<typeof singleErrorBodySchema>;

export const errorItemSchema = z.looseObject({
  title: z.string(),
  detail: z.string(),
  source: z.looseObject({ pointer: z.string() }).optional(),
});
export type ErrorItem = z.infer<typeof errorItemSchema>;

/** Error-list form: biometrics, recurrences, attempts and cards. */
export const errorListBodySchema = z.looseObject({
  errors: z.array(errorItemSchema),
});
export type ErrorListBody = z.infer<typeof errorListBodySchema>;
