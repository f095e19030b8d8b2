import type { FastifyReply } from 'fastify';
import { refuseCredentials } from './auth.js';
import { sendError } from './errors.js';
import type { FaultStatus } from './faults.js';

/**
 * The code and message of each injected status, as the sandbox's own routes answer it: 404 as a record a GET
 * cannot find (no pointer, as the biometrics routes answer one), 409 as a record whose status refuses the
 * request, 422 as a body member the bank cannot process, 5xx as the spec's `INTEGRATION_ERROR`.
 */
const answers: Record<Exclude<FaultStatus, 401 | 429>, (path: string) => [code: string, message: string]> = {
  403: () => ['FORBIDDEN', 'these credentials may not reach this resource'],
  404: (path) => ['NOT_FOUND', `${path} not found`],
  409: (path) => ['INVALID_STATUS', `the status of ${path} does not allow this request`],
  422: () => ['INVALID_PARAMETER', 'the request cannot be processed'],
  500: () => ['INTEGRATION_ERROR', 'Unexpected integration error'],
  502: () => ['INTEGRATION_ERROR', 'Unexpected integration error'],
  503: () => ['INTEGRATION_ERROR', 'Unexpected integration error'],
  504: () => ['INTEGRATION_ERROR', 'Unexpected integration error'],
};

/**
 * Answers a call a fault fails with `status` in the body the endpoint answers that status with: the spec's
 * one 401 body and challenge, a 429 with `Retry-After`, every other in the endpoint family's form
 * (errors.ts).
 */
export async function sendInjectedError(
  reply: FastifyReply,
  status: FaultStatus,
  path: string,
  retryAfterSeconds = 1,
): Promise<void> {
  if (status === 401) {
    await refuseCredentials(reply);
    return;
  }
  if (status === 429) {
    reply.header('retry-after', String(retryAfterSeconds));
    await sendError(reply, 429, 'RATE_LIMITED', 'Too many requests');
    return;
  }
  const [code, message] = answers[status](path);
  await sendError(reply, status, code, message);
}
