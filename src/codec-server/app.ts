import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { Logger } from 'pino';
import { z } from 'zod';
import { fastifyServerOptions, type ServerTimeouts } from '../http/server-timeouts.js';
import { codecPermission, requestedOperation, type CodecAuthSettings } from './auth.js';

/** The Temporal codec-server wire form: payloads in proto JSON, byte fields base64. */
const payloadsBodySchema = z.object({
  payloads: z.array(
    z.object({
      metadata: z.record(z.string(), z.base64()).optional(),
      data: z.base64().optional(),
    }),
  ),
});
type PayloadsBody = z.infer<typeof payloadsBodySchema>;

const fromJson = (body: PayloadsBody): Payload[] =>
  body.payloads.map((payload) => ({
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
    ),
    data: Buffer.from(payload.data ?? '', 'base64'),
  }));

const toJson = (payloads: Payload[]): PayloadsBody => ({
  payloads: payloads.map((payload) => ({
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? []).toString('base64'),
  })),
});

export interface CodecServerOptions {
  codec: PayloadCodec;
  auth: CodecAuthSettings;
  /** Browser origins allowed to call (the Temporal UI). */
  corsOrigins: string[];
  logger: Logger;
  /**
   * How long a client may take to send a request (defaults: src/http/server-timeouts.ts; short ones in
   * tests).
   */
  timeouts?: Partial<ServerTimeouts>;
}

/**
 * The codec endpoint the Temporal UI (`--ui-codec-endpoint`) and CLI (`--codec-endpoint`) call to show
 * support staff the decrypted payloads. It holds the payload keys, so it sits behind its own authentication,
 * and only credentials allowed to encode reach /encode (auth.ts).
 */
export function createCodecServer(options: CodecServerOptions): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'codec-server' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 4 * 1024 * 1024,
    ...fastifyServerOptions(options.timeouts),
  });

  const cors = (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin && options.corsOrigins.includes(origin)) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-credentials', 'true')
        .header('access-control-allow-headers', 'content-type,x-namespace,authorization')
        .header('access-control-allow-methods', 'POST,OPTIONS')
        .header('vary', 'origin');
    }
  };
  app.addHook('onRequest', async (request, reply) => {
    cors(request, reply);
    if (request.method === 'OPTIONS' || request.url === '/healthz') return;
    const permission = codecPermission(options.auth, request);
    if (permission === undefined) {
      const anyUsers = options.auth.users.length + (options.auth.encodeUsers?.length ?? 0) > 0;
      if (anyUsers) reply.header('www-authenticate', 'Basic realm="bankflow codec"');
      await reply.code(401).send({ error: 'codec server: authentication required' });
    } else if (requestedOperation(request.url) === 'encode' && permission !== 'encode') {
      await reply.code(403).send({
        error:
          'codec server: this credential may decode only; encoding is for CODEC_ENCODE_USERS and CODEC_ENCODE_TOKENS',
      });
    }
  });
  app.options('/*', async (_request, reply) => reply.code(204).send());
  app.get('/healthz', async () => ({ status: 'ok' }));

  const handler =
    (operation: 'encode' | 'decode') => async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = payloadsBodySchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply
          .code(400)
          .send({ error: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` });
      }
      try {
        return toJson(await options.codec[operation](fromJson(parsed.data)));
      } catch (error) {
        return reply.code(422).send({ error: (error as Error).message });
      }
    };
  for (const operation of ['encode', 'decode'] as const) {
    // `/:token/...` is the same endpoint for a Temporal UI that carries its token in the path (auth.ts).
    app.post(`/${operation}`, handler(operation));
    app.post(`/:token/${operation}`, handler(operation));
  }
  return app;
}
