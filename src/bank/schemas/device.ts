import { z } from 'zod';
import { date, dateTime, uuid } from './common.js';
import { enrollmentSchema } from './enrollment.js';
import { printable } from './printable.js';

/**
 * `POST /biometrics/devices`. The spec does not name the fingerprint member nor say which members are
 * required; bankflow sends `fingerprint` and requires it with the tax number, the pair a device is found by.
 */
export const deviceRequestSchema = z.looseObject({
  fingerprint: printable.min(1),
  counterparty_tax_number: z.string().regex(/^(\d{11}|\d{14})$/, 'a CPF (11 digits) or CNPJ (14 digits)'),
  counterparty_name: printable.min(1).optional(),
  os: printable.min(1).optional(),
  os_version: printable.min(1).optional(),
  language: printable.min(1).optional(),
  screen_width: z.number().int().positive().optional(),
  screen_height: z.number().int().positive().optional(),
  account_tenure: date.optional(),
  timezone_offset: z
    .string()
    .regex(/^[+-]\d{2}:\d{2}$/, 'of the form +HH:MM or -HH:MM')
    .optional(),
  load_enrollments: z.boolean().optional(),
});
export type DeviceRequest = z.infer<typeof deviceRequestSchema>;

/**
 * The device record's shape is not shown; only its id is relied on, the rest is kept as the bank sends it.
 */
export const deviceSchema = z.looseObject({
  id: uuid,
  fingerprint: printable.optional(),
  counterparty_tax_number: printable.optional(),
  counterparty_name: z.string().nullable().optional(),
  os: printable.nullable().optional(),
  os_version: printable.nullable().optional(),
  language: printable.nullable().optional(),
  screen_width: z.number().int().nullable().optional(),
  screen_height: z.number().int().nullable().optional(),
  account_tenure: date.nullable().optional(),
  timezone_offset: printable.nullable().optional(),
  inserted_at: dateTime.optional(),
  updated_at: dateTime.optional(),
  /** Present when the request asked for `load_enrollments`. */
  enrollments: z.array(enrollmentSchema).optional(),
});
export type Device = z.infer<typeof deviceSchema>;
