import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

/** The bank's own codes for what Fastify refuses before a route runs (the spec names none beyond two). */
const requestErrorCodes: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
};

/**
 * Every answer the sandbox gives in one of the spec's two error bodies, whatever went wrong: an unreadable
 * body, a content type it does not take, or a crash in a route (500 `INTEGRATION_ERROR`, as the spec names
 * it). A JSON content type with an empty body reads as no body, as the bodiless boleto cancel is often sent.
 */
export function answerRequestErrorsInTheSpecShape(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Request bodies are JSON (the spec's Endpoints section); text is refused like any other type, not parsed.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, requestErrorCodes[error.code] ?? 'INVALID_REQUEST', error.message);
    }
    request.log.error({ err: error, method: request.method, url: request.url }, 'sandbox route failed');
    return sendError(reply, 500, 'INTEGRATION_ERROR', 'Unexpected integration error');
  });
}

/**
 * Fastify options for the refusals its router makes before any hook: a path id longer than the router's
 * default bound reaches its route (which refuses it with a pointer, as any malformed id), and a path that is
 * not valid percent-encoding is a 400 in the family's shape.
 */
export const specShapedRouterOptions = {
  routerOptions: { maxParamLength: 2048 },
  frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, 400, 'INVALID_PARAMETER', error.message),
};
