import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AuthenticatorError, SoftwareAuthenticator } from '../../authenticator/software-authenticator.js';
import { sendError, sendValidationErrors, zodErrorItems } from '../errors.js';
import type { SandboxState } from '../state.js';

const prefix = '/sandbox/authenticators';

const newAuthenticatorSchema = z.strictObject({ user_verified: z.boolean().optional() });

const ceremonySchema = z.strictObject({
  /** The options exactly as the bank's API answered them (`public_key_encoded`). */
  public_key_encoded: z.string().min(1),
  /**
   * The page the ceremony runs on; by default the sandbox's own origin, as the hosted pages and the widget
   * have.
   */
  origin: z.url().optional(),
});

/** The origin a page the sandbox served would have, as reached by this request. */
const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * The customer's device for backends that cannot run bankflow's software authenticator in process (a merchant
 * backend in another language, curl): the control API creates one and has it answer the bank's creation and
 * request options, so a whole journey runs over HTTP. Behind the control token, like everything that plays
 * the customer or the bank.
 */
export function authenticatorRoutes(app: FastifyInstance, state: SandboxState): void {
  app.post(`${prefix}`, async (request, reply) => {
    const parsed = newAuthenticatorSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const id = randomUUID();
    state.authenticators.set(id, SoftwareAuthenticator.create({ userVerified: parsed.data.user_verified }));
    return reply.code(201).send({ data: { id } });
  });

  const ceremony =
    (answer: (authenticator: SoftwareAuthenticator, options: string, origin: string) => unknown) =>
    async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const authenticator = state.authenticators.get(request.params.id);
      if (!authenticator) return sendError(reply, 404, 'NOT_FOUND', `no authenticator ${request.params.id}`);
      const parsed = ceremonySchema.safeParse(request.body ?? {});
      if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
      try {
        return {
          data: answer(
            authenticator,
            parsed.data.public_key_encoded,
            parsed.data.origin ?? ownOrigin(request),
          ),
        };
      } catch (error) {
        if (!(error instanceof AuthenticatorError)) throw error;
        return sendError(reply, 422, 'AUTHENTICATOR_REFUSED', error.message, '/public_key_encoded');
      }
    };

  app.post(
    `${prefix}/:id/credentials`,
    ceremony((authenticator, options, origin) => authenticator.createCredential(options, origin)),
  );
  app.post(
    `${prefix}/:id/assertions`,
    ceremony((authenticator, options, origin) => authenticator.getAssertion(options, origin)),
  );
}
