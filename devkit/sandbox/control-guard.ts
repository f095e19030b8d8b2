import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { sendError } from './errors.js';
import { widgetPath } from './page-urls.js';

export interface SandboxAccess {
  /**
   * The control API's token (`Authorization: Bearer <token>`). The processes that serve the sandbox always
   * set one; unset only for an in-process sandbox whose test or benchmark owns the port.
   */
  controlToken?: string;
  /** Host names the sandbox answers to besides the loopback ones (its SANDBOX_HOST). */
  hosts?: string[];
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * What the customer's browser reaches without the token, as at a real bank: the hosted pages and the two
 * buttons of the bank's authorization page, each for one enrollment whose id the customer was given. Named by
 * the routes as registered, the pattern the router matched, never by the request's path: the router decodes
 * the path (`/%73andbox/reset` is `/sandbox/reset` to it), so a check on the raw path would guard another
 * path than the one served.
 */
const customerRoutes = new Set([
  '/sandbox/bank-authorization/:enrollmentId',
  '/sandbox/registration/:enrollmentId',
  '/sandbox/registration/:enrollmentId/session',
  '/sandbox/registration/:enrollmentId/options',
  '/sandbox/registration/:enrollmentId/register',
  widgetPath,
  '/sandbox/pages/:name',
  '/sandbox/biometrics/enrollments/:enrollmentId/bank-authorization',
]);

/**
 * The enrollment actions route serves revoke and expire too; only the customer's "reject" button is theirs.
 */
const enrollmentActionRoute = '/sandbox/biometrics/enrollments/:enrollmentId/:action';

/**
 * Whether the route a request matched is the control API's. A request no route matched reaches only the 404
 * answer, so it needs no token.
 */
function isControlRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined || !route.startsWith('/sandbox/') || customerRoutes.has(route)) return false;
  if (route !== enrollmentActionRoute) return true;
  return (request.params as { action?: string }).action !== 'reject';
}

const hostnameOf = (host: string | undefined) => {
  try {
    return host ? new URL(`http://${host}`).hostname : undefined;
  } catch {
    return undefined;
  }
};

const sameToken = (given: string, expected: string) =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

function controlTokenMatches(request: FastifyRequest, token: string): boolean {
  const [scheme, value] = (request.headers.authorization ?? '').split(/\s+/, 2);
  return /^bearer$/i.test(scheme ?? '') && value !== undefined && sameToken(value, token);
}

/**
 * Every request must name the sandbox by a loopback name or its configured host, so a web page that rebinds
 * its own DNS name to 127.0.0.1 reaches nothing; the control API (`/sandbox/...`: reset, faults, webhook
 * delivery and its target, the events it signs, state) also needs the token, whatever spelling of the path
 * reached the route.
 */
export function guardSandbox(app: FastifyInstance, access: SandboxAccess): void {
  const hosts = new Set([...loopbackHosts, ...(access.hosts ?? [])]);
  app.addHook('onRequest', async (request, reply) => {
    const hostname = hostnameOf(request.headers.host);
    if (hostname === undefined || !hosts.has(hostname)) {
      return sendError(
        reply,
        403,
        'FORBIDDEN',
        `the sandbox answers only to ${[...hosts].join(', ')} (Host ${JSON.stringify(request.headers.host ?? '')}); ` +
          'reach it by one of them, or set SANDBOX_HOST to the name you use',
      );
    }
    if (!isControlRoute(request)) return;
    if (access.controlToken !== undefined && !controlTokenMatches(request, access.controlToken)) {
      return sendError(
        reply,
        401,
        'UNAUTHORIZED',
        'the sandbox control API needs Authorization: Bearer <token>, the "Sandbox token" bankflow dev or ' +
          'bankflow sandbox printed (also set SANDBOX_CONTROL_TOKEN to choose it)',
      );
    }
  });
}
