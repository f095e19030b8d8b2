import fc from 'fast-check';
import type { z } from 'zod';
import { jsonKind, jsonOtherThan, text } from '../helpers/fuzz.js';

type Kind = ReturnType<typeof jsonKind>;
type Path = (string | number)[];

/** What a response schema declares for one member, read from the zod schema's definition. */
export interface Declared {
  optional: boolean;
  kinds: Set<Kind>;
  enumValues?: string[];
  /** guid, datetime or date: a string of any other shape is refused. */
  format?: string;
}

/** One member or array element of a valid body, and what the schema says of it (nothing when undeclared). */
export interface Site {
  path: Path;
  value: unknown;
  inObject: boolean;
  declared?: Declared;
  /** The schema of the value itself, to find its own members. */
  schema?: z.ZodType;
}

/** A mutated body and the outcome it must have: a refusal naming `failsAt`, or a parse that keeps it all. */
export interface Mutation {
  what: string;
  /** The bytes served, when the mutation is not of the JSON value. */
  text?: string;
  body?: unknown;
  failsAt?: Path;
  /** A refusal whose message says this, for bodies that are not JSON or not an object. */
  failsWith?: RegExp;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  format?: string;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

const allKinds: Kind[] = ['string', 'number', 'boolean', 'object', 'array', 'null'];

function kindsOf(schema: z.ZodType, into: Declared): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      into.optional = true;
      return kindsOf(def.innerType as z.ZodType, into);
    case 'nullable':
      into.kinds.add('null');
      return kindsOf(def.innerType as z.ZodType, into);
    case 'union':
      return (def.options ?? []).forEach((option) => kindsOf(option, into));
    case 'enum':
      into.kinds.add('string');
      into.enumValues = Object.values(def.entries ?? {});
      return;
    case 'literal':
      (def.values ?? []).forEach((value) => into.kinds.add(jsonKind(value)));
      return;
    case 'string':
      into.kinds.add('string');
      if (def.format) into.format = def.format;
      return;
    case 'number':
    case 'boolean':
    case 'object':
    case 'array':
      into.kinds.add(def.type);
      return;
    default:
      allKinds.forEach((kind) => into.kinds.add(kind));
  }
}

export function declared(schema: z.ZodType): Declared {
  const into: Declared = { optional: false, kinds: new Set() };
  kindsOf(schema, into);
  return into;
}

/** The member names an object schema declares, through optional and nullable wrappers. */
function declaredNames(schema: z.ZodType | undefined): Set<string> {
  if (!schema) return new Set();
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable') return declaredNames(def.innerType);
  return new Set(Object.keys(def.shape ?? {}));
}

/**
 * The schema of member `key` (or of an element) of a value that `schema` describes; undefined when not
 * declared.
 */
function childSchema(schema: z.ZodType | undefined, key: string | number): z.ZodType | undefined {
  if (!schema) return undefined;
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable') return childSchema(def.innerType, key);
  if (def.type === 'object' && typeof key === 'string' && def.shape && Object.hasOwn(def.shape, key)) {
    return def.shape[key];
  }
  if (def.type === 'array' && typeof key === 'number') return def.element;
  return undefined;
}

/** Every member and element of `body`, depth first, with the schema that declares it. */
export function sitesOf(body: unknown, schema: z.ZodType): Site[] {
  const sites: Site[] = [];
  const pending: { value: unknown; schema?: z.ZodType; path: Path }[] = [{ value: body, schema, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, member] of entries) {
      const memberSchema = childSchema(next.schema, key);
      const site: Site = {
        path: [...path, key],
        value: member,
        inObject: !Array.isArray(value),
        declared: memberSchema && declared(memberSchema),
        schema: memberSchema,
      };
      sites.push(site);
      pending.push({ value: member, schema: memberSchema, path: site.path });
    }
  }
  return sites;
}

function replaced(
  body: unknown,
  path: Path,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path[path.length - 1] as string | number);
  return copy;
}

const setAt = (body: unknown, path: Path, value: unknown) =>
  replaced(body, path, (parent, key) => {
    parent[key] = value;
  });

function nest(depth: number, kind: 'object' | 'array'): unknown {
  let value: unknown = kind === 'array' ? ['bottom'] : { bottom: true };
  for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { deeper: value };
  return value;
}

/** Member names that are also Object.prototype properties or look like indices: data like any other. */
const trickyKeys = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'then', 'length', '0'];

/** Every applicable mutation of one site, each with the outcome the client must have. */
function siteMutations(body: unknown, site: Site): fc.Arbitrary<Mutation>[] {
  const { path, declared: decl } = site;
  const label = path.join('.');
  const failsAt = (refused: boolean) => (refused ? path : undefined);
  const mutations: fc.Arbitrary<Mutation>[] = [];
  if (site.inObject) {
    mutations.push(
      fc.constant({
        what: `removed ${label}`,
        body: replaced(body, path, (p, k) => delete p[k]),
        failsAt: failsAt(!!decl && !decl.optional),
      }),
    );
  }
  mutations.push(
    fc.constant({
      what: `null at ${label}`,
      body: setAt(body, path, null),
      failsAt: failsAt(!!decl && !decl.kinds.has('null')),
    }),
  );

  // Declared members get values of a type they do not accept; others anything at all.
  const kind = jsonKind(site.value);
  const retyped = jsonOtherThan(kind === 'null' ? 'string' : kind).filter(
    (value) => value !== null && !(decl && decl.kinds.has(jsonKind(value))),
  );
  if (!decl || decl.kinds.size < allKinds.length) {
    mutations.push(
      retyped.map((value) => ({
        what: `retyped ${label} to ${jsonKind(value)}`,
        body: setAt(body, path, value),
        failsAt: failsAt(!!decl),
      })),
    );
  }
  const garbageKind = decl?.kinds.has('array') ? 'object' : decl?.kinds.has('object') ? 'array' : 'object';
  if (!decl || !decl.kinds.has(garbageKind)) {
    mutations.push(
      fc.integer({ min: 20, max: 400 }).map((depth) => ({
        what: `${depth} levels of ${garbageKind}s at ${label}`,
        body: setAt(body, path, nest(depth, garbageKind)),
        failsAt: failsAt(!!decl),
      })),
    );
  }
  if (decl?.enumValues) {
    const values = decl.enumValues;
    mutations.push(
      fc
        .oneof(
          text(20),
          fc.constantFrom(...values).map((value) => value.toUpperCase()),
        )
        .filter((value) => !values.includes(value))
        .map((value) => ({
          what: `${label} outside its enum: ${value}`,
          body: setAt(body, path, value),
          // An open status (a known one or any status word) keeps a word it does not know as data.
          failsAt: site.schema?.safeParse(value).success ? undefined : path,
        })),
    );
  }
  if (decl?.format) {
    const format = decl.format;
    mutations.push(
      fc
        .constantFrom('', 'not-a-value', '2025-13-45', '00000000-0000-0000-0000', '2025-06-15 12:00:00', 'Z')
        .map((value) => ({
          what: `${label} is not a ${format}: ${value}`,
          body: setAt(body, path, value),
          failsAt: path,
        })),
    );
  }
  if (typeof site.value === 'object' && site.value !== null && !Array.isArray(site.value)) {
    mutations.push(extraMember(body, path, site.schema));
  }
  return mutations;
}

function extraMember(body: unknown, path: Path, schema: z.ZodType | undefined): fc.Arbitrary<Mutation> {
  const known = declaredNames(schema);
  const key = fc
    .oneof(text(16), fc.constantFrom(...trickyKeys))
    .filter((name) => !known.has(name) && name !== '__proto__');
  return fc.tuple(key, fc.jsonValue({ maxDepth: 3 })).map(([name, value]) => ({
    what: `extra member ${[...path, name].join('.')}`,
    body: path.length ? setAt(body, [...path, name], value) : { ...(body as object), [name]: value },
  }));
}

/** Mutations of the whole document: cut short, not JSON, or JSON that is not an object. */
function documentMutations(body: unknown, schema: z.ZodType): fc.Arbitrary<Mutation>[] {
  const serialized = JSON.stringify(body);
  return [
    fc.nat({ max: serialized.length - 1 }).map((end) => ({
      what: `cut after ${end} characters`,
      text: serialized.slice(0, end),
      failsWith: end === 0 ? /with an empty body/ : /not JSON/,
    })),
    fc.constantFrom('<html>Service Unavailable</html>', 'OK', '{"data":', '\u0000', '[1,2').map((noise) => ({
      what: `noise ${JSON.stringify(noise)}`,
      text: noise,
      failsWith: /not JSON/,
    })),
    fc
      .oneof(
        fc.constant(null),
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
        text(),
        fc.integer(),
      )
      .map((value) => ({
        what: `document is ${jsonKind(value)}`,
        body: value,
        failsWith: /\(root\): /,
      })),
    extraMember(body, [], schema),
  ];
}

/** Any one mutation of a valid body. */
export function mutationArbitrary(body: unknown, schema: z.ZodType): fc.Arbitrary<Mutation> {
  const sites = sitesOf(body, schema);
  const perSite = fc.constantFrom(...sites).chain((site) => fc.oneof(...siteMutations(body, site)));
  return fc.oneof(
    { weight: 6, arbitrary: perSite },
    { weight: 1, arbitrary: fc.oneof(...documentMutations(body, schema)) },
  );
}
