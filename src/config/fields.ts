import { z } from 'zod';

/** The shapes environment variables take, shared by the sections of the configuration. */

/** What a section's variables parse to. */
export type Parsed<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const optionalPort = z.coerce.number().int().min(1).max(65535).optional();
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));
export const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
export const httpUrl = z.url({ protocol: /^https?$/ });
export const requestsPerSecond = z.coerce
  .number()
  .positive({ message: 'must be a number of requests per second above 0 (unset it for no limit)' })
  .max(10_000, { message: 'must be at most 10000 requests per second (unset it for no limit)' })
  .optional();

/** Comma-separated entries, each trimmed; empty or unset is an empty list. */
export const entries = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
