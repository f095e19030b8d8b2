import { z } from 'zod';
import { idempotencyHeader } from './idempotency.js';
import { problemSchema } from './problems.js';
import type { ApiRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as OpenAPI 3.1's dialect (JSON Schema draft 2020-12), as a request sends it or the API answers
 * it.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const described = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  // The document's dialect is 2020-12 already: a schema inside it names none.
  delete described.$schema;
  return described;
}

const problemRef = { $ref: '#/components/schemas/Problem' };
const problemAnswer = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemRef } },
});
const jsonAnswer = (description: string, schema: z.ZodType | undefined) => ({
  description,
  content: { 'application/json': { schema: schema ? jsonSchema(schema, 'output') : { type: 'object' } } },
});

/** The path or query parameters an object schema describes. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const described = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(described.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (described.required ?? []).includes(name),
    schema: property,
  }));
}

/** The characters of a uuid's text: 32 hex digits and 4 dashes. */
const uuidLength = 36;

/** A pattern that is one character class repeated a bounded number of times: `^[A-Za-z0-9]{1,100}$`. */
const boundedClassPattern = /^\^(?:\[(?:[^\]\\]|\\.)+\]|\\[dw])\{\d+,(\d+)\}\$$/;

/** The most characters a path parameter's JSON Schema allows, or undefined when it sets no bound. */
function longestAllowed(schema: {
  maxLength?: number;
  format?: string;
  pattern?: string;
}): number | undefined {
  if (schema.maxLength !== undefined) return schema.maxLength;
  if (schema.format === 'uuid') return uuidLength;
  const bound = boundedClassPattern.exec(schema.pattern ?? '')?.[1];
  return bound === undefined ? undefined : Number(bound);
}

/**
 * The longest path parameter any route's schema allows: its `maxLength`, a uuid's length, or the bound of a
 * pattern repeating one character class. The router measures a parameter percent-decoded, in UTF-16 code
 * units as zod's `max` does, so this is the router's `maxParamLength` that serves every parameter the schemas
 * allow. A path parameter without a bound is a mistake in the table: it is refused here, not served up to an
 * arbitrary length.
 */
export function longestPathParameter(routes: readonly ApiRoute[]): number {
  let longest = 0;
  for (const route of routes)
    for (const parameter of parameters(route.params, 'path')) {
      const length = longestAllowed(parameter.schema);
      if (length === undefined)
        throw new Error(
          `${route.method} ${route.path}: the path parameter ${parameter.name} needs a maximum length (.max())`,
        );
      longest = Math.max(longest, length);
    }
  return longest;
}

const idempotencyParameter = {
  name: idempotencyHeader,
  in: 'header',
  required: true,
  description:
    'One key per operation (a UUID): the same key on the same route gets the first answer; a start with other terms is 409',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function operation(route: ApiRoute) {
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...(route.method === 'POST' ? [idempotencyParameter] : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: {
      200: jsonAnswer('OK', route.answer),
      ...Object.fromEntries(
        Object.entries(route.otherAnswers ?? {}).map(([status, answer]) => [
          status,
          jsonAnswer(answer.description, answer.schema),
        ]),
      ),
      '4XX': problemAnswer('The request cannot be answered as sent: the problem names each field and reason'),
      '5XX': problemAnswer(
        'bankflow, Temporal or the bank failed; `retryable` and `sameId` say how to ask again',
      ),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the routes: generated from the schemas the server validates with, never
 * written.
 */
export function openApiDocument(routes: readonly ApiRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'bankflow merchant API',
      version: '1',
      description:
        "What bankflow's starter does, for merchant backends in any language: devices, enrollments, payments, " +
        "recurrences, boleto cancels and the bank's reads, over HTTP/JSON. " +
        'Authenticate with `Authorization: Bearer <key>`; every POST takes an `Idempotency-Key`.',
    },
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of API_KEYS' } },
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
    },
    paths,
  };
}
