import type { FastifyInstance } from 'fastify';
import { listIds } from '../id-listing.js';
import type { SandboxState } from '../state.js';

/** Which ids to try commands with: every record the sandbox holds, by kind (`bankflow sandbox ids`). */
export function idRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get('/sandbox/ids', async () => ({ data: listIds(state) }));
}
