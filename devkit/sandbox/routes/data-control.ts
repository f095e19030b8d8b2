import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { transferStatusSchema } from '../../../src/bank/schemas/transfer.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { bulkTransfers } from '../seed/bulk-transfers.js';
import type { SandboxState } from '../state.js';
import { bulkShape, bulkWindow, withOrderedWindow } from './bulk-window.js';

const bulkTransfersSchema = withOrderedWindow(
  z.strictObject(bulkShape(z.array(transferStatusSchema).min(1).default(['settled']))),
);

/**
 * Bank data on demand for tests, demos and benchmarks: many cash-out transfers at once, from the sandbox's
 * seeded stream so a run is repeatable. Unauthenticated, like the rest of /sandbox.
 */
export function dataControlRoutes(app: FastifyInstance, state: SandboxState): void {
  app.post('/sandbox/transfers/bulk', async (request, reply) => {
    const parsed = bulkTransfersSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const body = parsed.data;
    const { from, to } = bulkWindow(body);
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
