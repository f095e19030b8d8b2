import type { FastifyInstance } from 'fastify';
import { addedRulesSchema, faultSettingsSchema, type FaultInjector } from '../faults.js';
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

  const faultsView = () => ({ data: { settings: faults.current(), injected: faults.injected } });

  app.get('/sandbox/faults', async () => faultsView());

  app.put('/sandbox/faults', async (request, reply) => {
    const parsed = faultSettingsSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return sendValidationErrors(reply, zodErrorItems(parsed.error));
    }
    faults.configure(parsed.data);
    return faultsView();
  });

  // Rules join the current settings, whose seeded streams go on: a disruption started mid-run replays alike.
  app.post('/sandbox/faults/rules', async (request, reply) => {
    const parsed = addedRulesSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      return sendValidationErrors(reply, zodErrorItems(parsed.error));
    }
    faults.add(parsed.data);
    return faultsView();
  });

  app.get('/sandbox/world', async () => ({ data: state.world }));

  app.get<{ Querystring: { status?: string } }>('/sandbox/boletos', async (request) => {
    const boletos = [...state.boletos.values()].filter(
      (boleto) => !request.query.status || boleto.status === request.query.status,
    );
    return { data: boletos };
  });
}
