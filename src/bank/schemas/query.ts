import { z } from 'zod';
import { printable } from './printable.js';

/**
 * The cursors every paginated list accepts. The spec allows only one per request; the client refuses both
 * before sending and the sandbox answers both with a validation error (see bank/pagination.ts).
 */
export const cursorQueryShape = {
  before: printable.min(1).optional(),
  after: printable.min(1).optional(),
};

/**
 * Window filters are half-open, [from_datetime, to_datetime), so consecutive scheduled windows never overlap.
 */
export function windowInOrder(
  query: { from_datetime?: string | undefined; to_datetime?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!query.from_datetime || !query.to_datetime) return;
  if (Date.parse(query.from_datetime) > Date.parse(query.to_datetime)) {
    ctx.addIssue({
      code: 'custom',
      path: ['to_datetime'],
      message: 'must not be earlier than from_datetime',
    });
  }
}
