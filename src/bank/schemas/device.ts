import { z } from 'zod';
import { date, dateTime, uuid } from './common.js';
import { enrollmentSchema } from './enrollment.js';

/**
 * `POST /biometrics/devices`. The spec does not name the fingerprint member nor say which members are required;
 * bankflow sends `fingerprint` and requires it with the tax number, the pair a device is found by.
 */
export const deviceRequestSchema = z.looseObject({
  fingerprint: z.string().min(1),
  counterparty_tax_number: z.string().regex(/^(\d{11}|\d{14})$/, 'a CPF (11 digits) or CNPJ (14 digits)'),
  counterparty_name: z.string().min(1).optional(),
  os: z.string().min(1).optional(),
  os_version: z.string().min(1).optional(),
  language: z.string().min(1).optional(),
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

/** The device record's shape is not shown; only its id is relied on, the rest is kept as the bank sends it. */
export const deviceSchema = z.looseObject({
  id: uuid,
  fingerprint: z.string().optional(),
  counterparty_tax_number: z.string().optional(),
  counterparty_name: z.string().nullable().optional(),
  os: z.string().nullable().optional(),
  os_version: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  screen_width: z.number().int().nullable().optional(),
  screen_height: z.number().int().nullable().optional(),
  account_tenure: date.nullable().optional(),
  timezone_offset: z.string().nullable().optional(),
  inserted_at: dateTime.optional(),
  updated_at: dateTime.optional(),
  /** Present when the request asked for `load_enrollments`. */
  enrollments: z.array(enrollmentSchema).optional(),
});
export type Device = z.infer<typeof deviceSchema>;
