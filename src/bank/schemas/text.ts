import { z } from 'zod';

/**
 * The bound on Pix remittance information (a payment's description, a recurrence's description and payer
 * name).
 */
export const pixTextMaxLength = 140;

/**
 * A zod check: at most `max` characters counted as JSON string length, i.e. UTF-16 code units (an emoji
 * counts two), which is how the bank measures a string it parsed from JSON. zod's own `.max` counts code
 * points, which would pass text the bank refuses. The sandbox, the client and the starter all bound text with
 * this one check.
 */
export function maxJsonLength(
  max: number,
  message = `must be at most ${max} characters, counted as JSON string length (an emoji counts two)`,
) {
  return (ctx: z.core.ParsePayload<string>): void => {
    if (ctx.value.length <= max) return;
    ctx.issues.push({
      code: 'too_big',
      origin: 'string',
      maximum: max,
      inclusive: true,
      input: ctx.value,
      message,
    });
  };
}

/** Pix remittance information: 1 to 140 characters counted as JSON string length. */
export const pixText = (message?: string) =>
  z.string().min(1).check(maxJsonLength(pixTextMaxLength, message));
