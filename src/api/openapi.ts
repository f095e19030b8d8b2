import { z } from 'zod';
import { unprintableCharacter } from '../bank/schemas/printable.js';
import { idempotencyHeader, idempotencyKeyPattern } from './idempotency.js';
import { problemSchema } from './problems.js';
import { maxBodyBytes, maxBodyDepth, type ApiRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

const hex = (codePoint: number) => `\\u${codePoint.toString(16).padStart(4, '0')}`;

/**
 * The code point ranges of `unprintableCharacter` (control and bidi override characters), read from the class
 * itself over the Basic Multilingual Plane, where all of it lies.
 */
const unprintableRanges: [number, number][] = [];
for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
  if (!unprintableCharacter.test(String.fromCharCode(codePoint))) continue;
  const last = unprintableRanges.at(-1);
  if (last && last[1] === codePoint - 1) last[1] = codePoint;
  else unprintableRanges.push([codePoint, codePoint]);
}

/** The class as a JSON Schema pattern, in ranges every regex dialect reads (`\p{Cc}` needs the `u` flag). */
export const unprintablePattern = `[${unprintableRanges
  .map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`))
  .join('')}]`;

/** Characters of the class a check must refuse to be taken for one refusing the class: each range's ends. */
const unprintableSamples = unprintableRanges.flat().map((codePoint) => String.fromCharCode(codePoint));

/** What a zod check pushes on a value it refuses. */
interface CheckPayload {
  value: string;
  issues: { code?: string; maximum?: unknown }[];
}
type Check = { _zod: { def: { check: string }; check(payload: CheckPayload): void } };

/** The issues `check` raises on `value`. */
function refusals(check: Check, value: string): CheckPayload['issues'] {
  const payload: CheckPayload = { value, issues: [] };
  check._zod.check(payload);
  return payload.issues;
}

/** A string no body can exceed: what a length check is asked about to tell its bound. */
const longerThanAnyBody = 'x'.repeat(maxBodyBytes + 1);

/**
 * What a custom string check (a refine or a check function, which zod cannot put in JSON Schema) states, read
 * by asking it: whether it refuses control and bidi override characters (it refuses each of the class's
 * ranges' ends and accepts a letter), and the most characters it lets through (the `maximum` of the issue it
 * raises on a string longer than any body).
 */
const customRules = new WeakMap<Check, { printable: boolean; maxLength?: number }>();
function customRule(check: Check) {
  const known = customRules.get(check);
  if (known) return known;
  const printable =
    refusals(check, 'a').length === 0 &&
    unprintableSamples.every((character) => refusals(check, character).length > 0);
  const maximum = refusals(check, longerThanAnyBody).find((issue) => issue.code === 'too_big')?.maximum;
  const rule = { printable, ...(typeof maximum === 'number' ? { maxLength: maximum } : {}) };
  customRules.set(check, rule);
  return rule;
}

/**
 * States in `json` the rules of a string schema's custom checks: no control or bidi override characters as
 * `not: { pattern }`, a length bound as `maxLength`, so the document states every rule the server enforces.
 */
function stateCustomChecks(schema: z.core.$ZodType, json: JsonSchema): void {
  if (json.type !== 'string') return;
  for (const check of (schema._zod.def.checks ?? []) as unknown as Check[]) {
    if (check._zod.def.check !== 'custom') continue;
    const rule = customRule(check);
    if (rule.printable) json.not = { pattern: unprintablePattern };
    if (rule.maxLength !== undefined)
      json.maxLength = Math.min(rule.maxLength, (json.maxLength as number | undefined) ?? rule.maxLength);
  }
}

/**
 * A zod schema as OpenAPI 3.1's dialect (JSON Schema draft 2020-12), as a request sends it or the API answers
 * it, with the rules of its custom checks stated.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const described = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: json }) => stateCustomChecks(zodSchema, json),
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
    'One key per operation (a UUID), 1 to 255 visible ASCII characters: the same key on the same route gets the ' +
    'first answer; a start with other terms, or a device request with another body, is 409',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: idempotencyKeyPattern.source },
};

/** What every body is held to before its schema, and what a body past it is answered. */
const bodyDescription =
  `JSON (application/json, else 415) of at most ${maxBodyBytes} bytes (else 413), nesting objects and arrays ` +
  `at most ${maxBodyDepth} levels deep (else 400)`;

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
            description: bodyDescription,
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
        'Authenticate with `Authorization: Bearer <key>`; every POST takes an `Idempotency-Key`. ' +
        `A body is ${bodyDescription}. A path parameter is routed up to ${longestPathParameter(routes)} ` +
        'characters percent-decoded, the longest any schema allows (longer: 414). Every `maxLength` counts ' +
        'UTF-16 code units, as JSON string length does (an emoji counts two); `not: { pattern }` marks text ' +
        'that may hold no control or bidi override character. Every failure is an RFC 9457 problem.',
    },
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of API_KEYS' } },
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
    },
    paths,
  };
}
