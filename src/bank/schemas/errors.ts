import { z } from 'zod';
import { printable } from './printable.js';

/** Single-error form: transfer list, refunds, boleto cancel, metrics. */
export const singleErrorBodySchema = z.looseObject({
  error: z.looseObject({
    error_code: printable,
    error_message: z.string(),
  }),
});
export type SingleErrorBody = z.infer<typeof singleErrorBodySchema>;

export const errorItemSchema = z.looseObject({
  title: printable,
  detail: z.string(),
  source: z.looseObject({ pointer: printable }).optional(),
});
export type ErrorItem = z.infer<typeof errorItemSchema>;

/** Error-list form: biometrics, recurrences, attempts and cards. */
export const errorListBodySchema = z.looseObject({
  errors: z.array(errorItemSchema),
});
export type ErrorListBody = z.infer<typeof errorListBodySchema>;

/**
 * Not the bank's: what a gateway or web framework in front of it answers (e.g. `{statusCode, code, error,
 * message}`), read so that its message still reaches the typed error.
 */
export const otherErrorBodySchema = z.looseObject({
  message: z.string(),
  code: printable.optional(),
});
