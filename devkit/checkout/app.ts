import { WorkflowNotFoundError } from '@temporalio/client';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { fastifyServerOptions, type ServerTimeouts } from '../../src/http/server-timeouts.js';
import { loadAssets, sendAsset } from '../http/static-assets.js';
import { InvalidInputError, RequestRefusedError, RequestTimedOutError } from '../../src/starter/index.js';
import { checkoutApiRoutes, type CheckoutApiDeps } from './api.js';
import { checkoutPublicUrl, guardCheckoutHost } from './public-url.js';
import { createSessions } from './session.js';

const assets = loadAssets(new URL('./public/', import.meta.url), [
  'index.html',
  'checkout.js',
  'checkout.css',
]);

export interface CheckoutOptions extends Omit<CheckoutApiDeps, 'sessions' | 'publicUrl'> {
  logger: Logger;
  /**
   * Where customers reach the checkout (CHECKOUT_PUBLIC_URL); unset, http://localhost:<the port it listens
   * on>.
   */
  publicUrl?: string;
  /**
   * How long a client may take to send a request (defaults: src/http/server-timeouts.ts; short ones in
   * tests).
   */
  timeouts?: Partial<ServerTimeouts>;
}

/** What the page shows when a call fails: the reason, never a stack. */
function failureAnswer(error: unknown): { status: number; message: string } {
  if (error instanceof InvalidInputError) return { status: 400, message: error.message };
  if (error instanceof WorkflowNotFoundError) return { status: 404, message: 'nothing started yet' };
  if (error instanceof RequestRefusedError) return { status: 422, message: error.message };
  if (error instanceof RequestTimedOutError) return { status: 504, message: error.message };
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message: (error as Error).message };
  }
  return { status: 500, message: 'the checkout backend failed; see its log' };
}

/**
 * The reference checkout page and its small merchant backend: static HTML and a few lines of browser script,
 * and a JSON API that calls bankflow's starter functions for the customer of the session the page's load
 * opened.
 */
export function createCheckout(options: CheckoutOptions): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'checkout' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    ...fastifyServerOptions(options.timeouts),
  });

  const publicUrl = checkoutPublicUrl(app, options.publicUrl);
  guardCheckoutHost(app, publicUrl);
  const sessions = createSessions({ secure: publicUrl().protocol === 'https:' });
  for (const [name, asset] of assets) {
    const page = name === 'index.html';
    app.get(page ? '/' : `/${name}`, async (request, reply) => {
      if (page) sessions.open(request, reply);
      return sendAsset(reply, asset);
    });
  }
  checkoutApiRoutes(app, { ...options, sessions, publicUrl });

  app.setErrorHandler((error, request, reply) => {
    const answer = failureAnswer(error);
    if (answer.status >= 500) request.log.error({ err: error }, 'checkout call failed');
    return reply.code(answer.status).send({ error: answer.message });
  });
  return app;
}
