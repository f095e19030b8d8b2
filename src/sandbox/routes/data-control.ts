import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dateTime } from '../../bank/schemas/common.js';
import { transferStatusSchema } from '../../bank/schemas/transfer.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { bulkTransfers } from '../seed/bulk-transfers.js';
import { dayMs, plusMs } from '../seed/generators.js';
import type { SandboxState } from '../state.js';

const bulkTransfersSchema = z
  .strictObject({
    count: z.number().int().min(1).max(100_000),
    /** Cycled through in order; every transfer settled when absent. */
    statuses: z.array(transferStatusSchema).min(1).default(['settled']),
    from: dateTime.optional(),
    to: dateTime.optional(),
  })
  .refine((body) => !body.from || !body.to || Date.parse(body.from) < Date.parse(body.to), {
    path: ['to'],
    message: 'must be later than from',
  });

/**
 * Bank data on demand for tests, demos and benchmarks: many cash-out transfers at once, from the sandbox's
 * seeded stream so a run is repeatable. Unauthenticated, like the rest of /sandbox.
 */
export function dataControlRoutes(app: FastifyInstance, state: SandboxState): void {
  app.post('/sandbox/transfers/bulk', async (request, reply) => {
    const parsed = bulkTransfersSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const body = parsed.data;
    const to = body.to ? new Date(body.to) : new Date();
    const from = body.from ? new Date(body.from) : plusMs(to, -dayMs);
    const transfers = bulkTransfers(state.bankData.random, state.world, {
      count: body.count,
      from,
      to,
      statuses: body.statuses,
      firstIndex: state.bankData.transfers.length,
    });
    state.bankData.transfers.push(...transfers);
    return reply.code(201).send({
      data: {
        created: transfers.length,
        from: from.toISOString(),
        to: to.toISOString(),
        first_transfer_id: transfers[0]?.id,
        last_transfer_id: transfers[transfers.length - 1]?.id,
      },
    });
  });
}
