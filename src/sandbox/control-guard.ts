import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { sendError } from './errors.js';

export interface SandboxAccess {
  /**
   * The control API's token (`Authorization: Bearer <token>`). The processes that serve the sandbox always set
   * one; unset only for an in-process sandbox whose test or benchmark owns the port.
   */
  controlToken?: string;
  /** Host names the sandbox answers to besides the loopback ones (its SANDBOX_HOST). */
  hosts?: string[];
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * What the customer's browser reaches without the token, as at a real bank: the hosted pages and the two buttons
 * of the bank's authorization page, each for one enrollment whose id the customer was given.
 */
const customerPaths = [
  /^\/sandbox\/(bank-authorization|registration)\//,
  /^\/sandbox\/widget$/,
  /^\/sandbox\/pages\//,
  /^\/sandbox\/biometrics\/enrollments\/[^/]+\/(bank-authorization|reject)$/,
];

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
 * Every request must name the sandbox by a loopback name or its configured host, so a web page that rebinds its
 * own DNS name to 127.0.0.1 reaches nothing; the control API (`/sandbox/...`: reset, faults, webhook delivery and
 * its target, state) also needs the token.
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
    const path = request.url.split('?')[0] ?? request.url;
    if (!path.startsWith('/sandbox/') || customerPaths.some((pattern) => pattern.test(path))) return;
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
