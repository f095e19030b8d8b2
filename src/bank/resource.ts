import type { Method } from 'got';
import type { z } from 'zod';
import type { BankHttp, BankRequest, QueryValue } from './http.js';
import {
  assertOneCursor,
  eachRecord,
  toPage,
  type ListEndpoint,
  type Page,
  type PageCursors,
} from './pagination.js';
import { list, single } from './schemas/common.js';

// An endpoint is declared once, as data, in its resource's module (src/bank/resources), the way stripe-node
// declares its resources; BankClient's methods (here) and the bank-call activities
// (src/activities/bank-calls.ts) are derived from the declarations, so a route, a schema or an operation name
// cannot differ between them.

/**
 * What an endpoint answers: one record (`{data}`), one page of a list without cursors, or a list paged by
 * cursors (which also gets a `listAll...` method walking every page).
 */
export type Answer = 'record' | 'page' | 'pages';

declare const carried: unique symbol;

/**
 * A request's body or query. Only its type is declared, for the method's signature: requests go out as given
 * and the bank validates them.
 */
export interface RequestPart<T = unknown, Optional extends boolean = boolean> {
  readonly in: 'body' | 'query';
  readonly optional: Optional;
  readonly [carried]?: T;
}

export const body = <T>(): RequestPart<T, false> => ({ in: 'body', optional: false });
export const query = <T>(): RequestPart<T, false> => ({ in: 'query', optional: false });
/** A query the method may be called without: it is sent as `{}` then. */
export const optionalQuery = <T>(): RequestPart<T, true> => ({ in: 'query', optional: true });

/**
 * One endpoint of a bank resource: everything its client method, and its activity if it has one, are made of.
 */
export interface Endpoint<
  Route extends string = string,
  Part extends RequestPart | undefined = RequestPart | undefined,
  RecordSchema extends z.ZodType = z.ZodType,
  Answers extends Answer = Answer,
  Activity extends boolean = boolean,
> {
  method: Method;
  /**
   * The path with its parameters as placeholders (`/banking/cards/{card_id}`), filled from the method's
   * leading arguments in order and encoded. Spans and metrics name the call by it, so it stays
   * low-cardinality.
   */
  route: Route;
  request?: Part;
  /** The schema of one record of the answer; the envelope (`{data}` or a list) follows from `answers`. */
  record: RecordSchema;
  answers: Answers;
  /**
   * Whether workflows call it: then it is also an activity of the same name (src/activities/bank-calls.ts).
   */
  activity: Activity;
}

/** Declares an endpoint; the identity, so that its route and request types are kept exactly. */
export const endpoint = <
  const Route extends string,
  RecordSchema extends z.ZodType,
  Answers extends Answer,
  Activity extends boolean,
  Part extends RequestPart | undefined = undefined,
>(
  definition: Endpoint<Route, Part, RecordSchema, Answers, Activity>,
) => definition;

export type Endpoints = Record<string, Endpoint>;

type PathParams<Route extends string> = Route extends `${string}{${string}}${infer Rest}`
  ? [string, ...PathParams<Rest>]
  : [];

type PartArgs<Part> = [Part] extends [undefined]
  ? []
  : [NonNullable<Part>] extends [RequestPart<infer T, infer Optional>]
    ? Optional extends true
      ? [T?]
      : [T]
    : [];

/** The method's arguments: the route's parameters in order, then the body or query if it takes one. */
export type EndpointArgs<E extends Endpoint> = [...PathParams<E['route']>, ...PartArgs<E['request']>];

export type EndpointResult<E extends Endpoint> = E['answers'] extends 'record'
  ? z.infer<E['record']>
  : Page<z.infer<E['record']>>;

export type EndpointMethod<E extends Endpoint> = (...args: EndpointArgs<E>) => Promise<EndpointResult<E>>;

type ListAllName<Name> = Name extends `list${infer Rest}` ? `listAll${Rest}` : never;

/** A method per endpoint, named as the endpoint, and `listAll...` for each list paged by cursors. */
export type ResourceMethods<E extends Endpoints> = { [Name in keyof E]: EndpointMethod<E[Name]> } & {
  [Name in keyof E as E[Name]['answers'] extends 'pages' ? ListAllName<Name> : never]: (
    ...args: EndpointArgs<E[Name]>
  ) => AsyncGenerator<z.infer<E[Name]['record']>, void, undefined>;
};

/** Where a list paged by cursors goes, for errors raised before or between its requests. */
export const listEndpointOf = (operation: string, definition: Endpoint): ListEndpoint => ({
  operation,
  path: definition.route,
});

const placeholder = /\{[^}]+\}/g;

/**
 * The call's HTTP request: its operation is the endpoint's name, as errors, logs, spans and metrics show it.
 */
function requestOf(
  operation: string,
  definition: Endpoint,
  schema: z.ZodType,
  args: unknown[],
): BankRequest<z.ZodType> {
  const values = [...args];
  const path = definition.route.replace(placeholder, () => encodeURIComponent(String(values.shift())));
  const input = values.shift();
  const part = definition.request;
  const query = part?.in === 'query' ? { ...(input as Record<string, QueryValue> | undefined) } : undefined;
  // A query carrying both cursors is refused here, before anything is sent.
  if (definition.answers === 'pages') assertOneCursor(listEndpointOf(operation, definition), query ?? {});
  const body = part?.in === 'body' ? input : undefined;
  return { operation, method: definition.method, path, route: definition.route, query, body, schema };
}

/** The schema the whole answer is parsed with: `{data: record}` or a list of records. */
export const answerSchema = (definition: Endpoint): z.ZodType =>
  definition.answers === 'record' ? single(definition.record) : list(definition.record);

type PageMethod = (...args: unknown[]) => Promise<Page<unknown>>;

/**
 * Puts a method per endpoint on `prototype`, whose instances hold the BankHttp they send with as `http`, and
 * a `listAll...` method per list paged by cursors, which follows its cursors with the query's other members
 * kept.
 */
export function defineResourceMethods(prototype: object, endpoints: Endpoints): void {
  for (const [name, definition] of Object.entries(endpoints)) {
    const schema = answerSchema(definition);
    const call = async function (this: { http: BankHttp }, ...args: unknown[]) {
      const response = await this.http.request(requestOf(name, definition, schema, args));
      return definition.answers === 'record'
        ? (response as { data: unknown }).data
        : toPage(response as { data: unknown[] });
    };
    Object.defineProperty(prototype, name, { value: call, writable: true, configurable: true });

    const listAll = name.replace(/^list/, 'listAll');
    if (definition.answers !== 'pages' || listAll === name) continue;
    const pathParams = definition.route.match(placeholder)?.length ?? 0;
    const all = function (this: Record<string, PageMethod>, ...args: unknown[]) {
      const pathArgs = args.slice(0, pathParams);
      const first = (args[pathParams] ?? {}) as PageCursors;
      const fetchPage = this[name] as PageMethod;
      return eachRecord(listEndpointOf(name, definition), first, (page) =>
        fetchPage.call(this, ...pathArgs, page),
      );
    };
    Object.defineProperty(prototype, listAll, { value: all, writable: true, configurable: true });
  }
}
