import { z } from 'zod';
import { dateTime } from '../../../src/bank/schemas/common.js';
import { dayMs, plusMs } from '../seed/generators.js';

interface WindowMembers {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The members every bulk control call takes: how many records, the statuses they cycle through in order, and
 * the window [from, to) they are spread over (either end may be left out).
 */
export function bulkShape<Statuses extends z.ZodType<string[]>>(statuses: Statuses) {
  return {
    count: z.number().int().min(1).max(100_000),
    statuses,
    from: dateTime.optional(),
    to: dateTime.optional(),
  };
}

/** A bulk body schema that also refuses a window whose `to` is not later than its `from`. */
export function withOrderedWindow<S extends z.ZodType<WindowMembers>>(schema: S): S {
  return schema.refine((body) => !body.from || !body.to || Date.parse(body.from) < Date.parse(body.to), {
    path: ['to'],
    message: 'must be later than from',
  });
}

/** The window a bulk call asked for: up to now when `to` is absent, the day before `to` when `from` is. */
export function bulkWindow(body: WindowMembers): { from: Date; to: Date } {
  const to = body.to ? new Date(body.to) : new Date();
  const from = body.from ? new Date(body.from) : plusMs(to, -dayMs);
  return { from, to };
}
