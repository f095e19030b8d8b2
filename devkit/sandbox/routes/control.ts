import type { FastifyInstance } from 'fastify';
import { faultSettingsSchema, type FaultInjector } from '../faults.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import type { SandboxState } from '../state.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

/**
 * The bank's side of the story, for tests, demos and operators: inspect and reset state, inject faults.
 * Not part of the Banking API; behind the sandbox's control token and Host check (control-guard.ts).
 */
export function controlRoutes(
  app: FastifyInstance,
  state: SandboxState,
  faults: FaultInjector,
  webhooks: WebhookDispatcher,
): void {
  app.post('/sandbox/reset', async () => {
    state.reset();
    faults.reset(state.seed);
    webhooks.clearHistory();
    return { data: { seed: state.seed } };
  });

  app.get('/sandbox/faults', async () => ({
    data: { settings: faults.current(), injected: faults.injected },
  }));

  app.put('/sandbox/faults', async (request, reply) => {
    const parsed = faultSettingsSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return sendValidationErrors(reply, zodErrorItems(parsed.error));
    }
    faults.configure(parsed.data);
    return { data: { settings: faults.current(), injected: faults.injected } };
  });

  app.get('/sandbox/world', async () => ({ data: state.world }));

  app.get<{ Querystring: { status?: string } }>('/sandbox/boletos', async (request) => {
    const boletos = [...state.boletos.values()].filter(
      (boleto) => !request.query.status || boleto.status === request.query.status,
    );
    return { data: boletos };
  });
}
