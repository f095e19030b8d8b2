import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../src/bank/schemas/common.js';
import { sendError } from '../errors.js';
import { parseParameters } from '../query.js';
import type { SandboxState } from '../state.js';

/** The status a cancelled boleto takes (the spec does not show it; see docs/decisions.md). */
export const cancelledBoletoStatus = 'cancelled';

const boletoParamsSchema = z.strictObject({ id: uuid });

export function boletoRoutes(app: FastifyInstance, state: SandboxState): void {
  app.put(
    '/banking/cashin/boletos/:id/cancel',
    { config: { errorShape: 'single' } },
    async (request, reply) => {
      const params = parseParameters(reply, 'path', boletoParamsSchema, request.params);
      if (!params) return reply;
      const { id } = params;
      const boleto = state.boletos.get(id);
      if (!boleto) return sendError(reply, 404, 'NOT_FOUND', `boleto ${id} not found`);
      // Cancelling twice answers the cancelled boleto again, so a retried call is harmless.
      if (boleto.status !== cancelledBoletoStatus) {
        const before = structuredClone(boleto);
        boleto.status = cancelledBoletoStatus;
        state.reads.boletos.changed(id, boleto, before);
      }
      // The answer comes from the bank's read side, which may not show the cancellation yet (`get_lag_ms`).
      return { data: state.reads.boleto(boleto) ?? boleto };
    },
  );
}
