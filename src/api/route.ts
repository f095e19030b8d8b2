import type { z } from 'zod';
import type { StarterContext } from '../starter/context.js';
import type { BankReadContext } from '../starter/devices.js';
import type { IdempotencyScope } from './idempotency.js';
import type { KeptAnswers } from './kept-answers.js';

/**
 * The largest body a request may send. The largest a route takes is a WebAuthn credential or assertion, a few
 * KiB (tens with an attestation's certificate chain); 256 KiB is the bound the bank's webhooks are read with.
 */
export const maxBodyBytes = 256 * 1024;

/**
 * How deep a body may nest objects and arrays. The deepest body a route declares nests 4 levels (a
 * recurrence's `first_payment.due_detail.discount_amounts`); the bank's open objects may carry members of
 * their own, so 32 leaves room, and stays far below the thousands of levels at which the recursive walks a
 * body meets (zod, JSON.stringify of a Temporal payload or a bank request) exhaust the stack.
 */
export const maxBodyDepth = 32;

/** What routes call: the starter's Temporal context and the bank reads. */
export interface ApiContext {
  starter: StarterContext;
  bank: BankReadContext;
  /** The answers this process gave to POSTs that start nothing in Temporal. */
  keptAnswers: KeptAnswers;
}

/** What a route answers: 200 unless it says otherwise. */
export interface RouteAnswer {
  status?: number;
  body: unknown;
}

/**
 * What a route's call gets: its parsed parameters, query and body, and for a POST its Idempotency-Key's
 * scope.
 */
export interface RouteRequest<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  idempotency: IdempotencyScope;
}

/**
 * One operation of the API, the only place it is described: the server validates with these schemas and calls
 * `call`, and the OpenAPI document is generated from the same entries (src/api/openapi.ts).
 */
export interface ApiRoute<Params = unknown, Query = unknown, Body = unknown> {
  method: 'GET' | 'POST';
  /** OpenAPI form: `/v1/payments/{externalId}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  /** The 200 answer's shape, where the starter or bank schema describes it. */
  answer?: z.ZodType;
  /** Other successful statuses, with what they mean. */
  otherAnswers?: Record<number, { description: string; schema?: z.ZodType }>;
  /** ONE call to the starter or the bank reads. */
  call(ctx: ApiContext, request: RouteRequest<Params, Query, Body>): Promise<RouteAnswer>;
}

/** Types a route's call by its schemas, then forgets them for the table. */
export const route = <Params, Query, Body>(definition: ApiRoute<Params, Query, Body>): ApiRoute =>
  definition as unknown as ApiRoute;
