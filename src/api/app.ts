import type { Socket } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { fastifyServerOptions, serverTimeouts, type ServerTimeouts } from '../http/server-timeouts.js';
import { authenticate } from './auth.js';
import { idempotencyScope } from './idempotency.js';
import type { ApiKeyEntry } from './keys.js';
import { longestPathParameter, openApiDocument } from './openapi.js';
import {
  ApiProblem,
  answerClientError,
  frameworkProblem,
  invalidRequest,
  problemFor,
  sendProblem,
  type RequestLimits,
} from './problems.js';
import { KeptAnswers } from './kept-answers.js';
import { keepClientRequestId, requestIdOf } from './request-ids.js';
import { maxBodyBytes, maxBodyDepth, type ApiContext } from './route.js';
import { apiRoutes } from './routes/index.js';

export interface ApiServerOptions extends Omit<ApiContext, 'keptAnswers'> {
  keys: readonly ApiKeyEntry[];
  /** Whether a `bf_dev_` key may open the API: only in development (refused unless said). */
  developmentKeys?: 'accepted' | 'refused';
  rateLimitPerMinute: number;
  logger: Logger;
  timeouts?: Partial<ServerTimeouts>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The name of the API key the request authenticated with (never the key). */
    apiKeyName?: string;
  }
}

/** Paths open without a key: the load balancer's probe, and the document describing the API. */
const openPaths = new Set(['/healthz', '/openapi.json']);

/**
 * The router's longest path parameter: the longest any route's schema allows (a payment's externalId, 200),
 * so every parameter a schema accepts reaches its route, and a longer one is 414 before any route runs.
 */
export const maxParamLength = longestPathParameter(apiRoutes);

/**
 * Whether JSON `text` nests objects and arrays deeper than `limit`, read in one pass without parsing it, so
 * no work proportional to the nesting happens before the limit is checked. Brackets inside strings do not
 * count; text that is not JSON is left to the parser to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') {
      if (++depth > limit) return true;
    } else if (character === '}' || character === ']') depth--;
  }
  return false;
}

const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function parsed<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw invalidRequest(result.error, where);
  return result.data;
}

/**
 * The merchant HTTP API: each route of the table (src/api/routes/) as one call to the starter or the bank
 * reads, behind API keys, with an Idempotency-Key on every POST, RFC 9457 problems, a Request-Id on every
 * answer and log line, and a rate limit per key.
 */
export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const limits: RequestLimits = { bodyBytes: maxBodyBytes, paramLength: maxParamLength };
  // The request whose body is arriving on each connection: a client error Node reports on the connection
  // (the request not received in time) is answered with its id and path.
  const arriving = new WeakMap<Socket, FastifyRequest>();
  const timeouts = serverTimeouts(options.timeouts);
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'api' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    bodyLimit: limits.bodyBytes,
    routerOptions: { maxParamLength: limits.paramLength },
    // The router's refusals of a URL (malformed percent-encoding, a parameter too long), before any hook.
    frameworkErrors: (error, request, reply) => {
      sendProblem(request, reply, frameworkProblem(error, limits));
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, arriving.get(socket), timeouts),
    ...fastifyServerOptions(options.timeouts),
  });
  // Bodies are JSON, and no deeper than maxBodyDepth, checked before the text is parsed; any other media type
  // is 415 (Fastify would read text/plain as a string). Fastify's own JSON parser does the rest: an empty
  // body, bad JSON, and __proto__ or constructor.prototype, are refused.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (!nestsDeeperThan(body as string, maxBodyDepth)) return parseJson(request, body as string, done);
    const reason = `nests objects and arrays deeper than ${maxBodyDepth} levels`;
    done(
      new ApiProblem(400, 'invalid-request', 'Invalid request', `the request's body ${reason}`, [
        { field: 'body', reason },
      ]),
      undefined,
    );
  });

  app.setErrorHandler((error, request, reply) => {
    const statusOf = (error as { statusCode?: number }).statusCode;
    // Fastify's own refusals (a body that is not JSON, too large, of another type) are the caller's to fix.
    const problem =
      !(error instanceof ApiProblem) && statusOf !== undefined && statusOf >= 400 && statusOf < 500
        ? frameworkProblem(error as FastifyError, limits)
        : problemFor(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'API request failed');
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new ApiProblem(
        404,
        'not-found',
        'Not found',
        `no operation at ${request.method} ${request.url.split('?')[0]}`,
      ),
    ),
  );

  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
    keepClientRequestId(request, reply);
    arriving.set(request.raw.socket, request);
    const path = request.url.split('?')[0] ?? '';
    if (openPaths.has(path)) return;
    request.apiKeyName = authenticate(options.keys, request, options.developmentKeys ?? 'refused');
  });
  const received = (request: FastifyRequest) => {
    if (arriving.get(request.raw.socket) === request) arriving.delete(request.raw.socket);
  };
  // Validation starts once the body is read.
  app.addHook('preValidation', async (request) => received(request));
  app.addHook('onResponse', async (request, reply) => {
    received(request);
    request.log.info(
      {
        method: request.method,
        path: request.routeOptions.url,
        status: reply.statusCode,
        apiKey: request.apiKeyName,
      },
      'API request answered',
    );
  });

  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => request.apiKeyName ?? request.ip,
    allowList: (request) => request.apiKeyName === undefined,
    errorResponseBuilder: (_request, context) =>
      new ApiProblem(
        429,
        'rate-limited',
        'Too many requests',
        `this API key made more than ${context.max} requests in a minute; ask again in ${context.after}`,
        [],
        { retryable: true, sameId: true, retryAfterSeconds: Math.ceil(context.ttl / 1000) },
      ),
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  const document = openApiDocument(apiRoutes);
  app.get('/openapi.json', async () => document);

  const context: ApiContext = { ...options, keptAnswers: new KeptAnswers() };
  for (const definition of apiRoutes) {
    app.route({
      method: definition.method,
      url: fastifyPath(definition.path),
      handler: async (request, reply) => {
        const post = definition.method === 'POST';
        // A GET is never a repeat of another request: its scope is its own request id, and it derives no ids.
        const idempotency = idempotencyScope(post ? request.headers['idempotency-key'] : request.id, {
          method: request.method,
          path: request.url.split('?')[0] ?? '',
        });
        const params = parsed(definition.params, request.params, 'path parameters');
        const query = parsed(definition.query, request.query, 'query');
        const body = parsed(definition.body, request.body, 'body');
        const answer = await definition.call(context, { params, query, body, idempotency });
        return reply.code(answer.status ?? 200).send(answer.body);
      },
    });
  }
  return app;
}
