import { randomInt } from 'node:crypto';

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A Pix end-to-end id: `E`, the ISPB of the institution that initiates it, `yyyyMMddHHmm` (UTC), 11
 * characters.
 */
export function endToEndId(ispb: string, at: Date): string {
  const minute = at.toISOString().replace(/\D/g, '').slice(0, 12);
  let suffix = '';
  for (let index = 0; index < 11; index++) suffix += alphanumeric[randomInt(alphanumeric.length)];
  return `E${ispb}${minute}${suffix}`;
}
