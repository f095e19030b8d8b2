import fc from 'fast-check';
import { unprintableCharacter } from '../../src/bank/schemas/printable.js';
import { webhookCategories, webhookHeaders } from '../../src/bank/schemas/webhook.js';
import { signWebhookBody } from '../../src/bank/webhook-signature.js';
import { maxJsonDepth } from '../../src/webhooks/json-body.js';
import { bodyLabel, jsonOtherThan, labelled, text } from '../helpers/fuzz.js';

export type Envelope = Record<string, unknown>;

/** Envelope members that point an event at a running workflow, and that workflow's id. */
export interface Aim {
  category: string;
  refId?: string;
  data: Record<string, string>;
  workflowId: string;
  /**
   * How the receiver lands it: a signal to a running workflow, or held by id (a cash-in's holder, started by
   * it).
   */
  delivered: 'signal' | 'held';
}

/** A body the receiver must accept, with the envelope it holds. */
export interface ValidBody {
  envelope: Envelope;
  body: Buffer;
}

/** A body that is not a valid envelope, and which rule it breaks. */
export interface InvalidBody {
  breaks: string;
  body: Buffer;
  /** The member a refusal must name (`body` for the whole document), when the body is JSON. */
  names?: string;
  /** What the refusal's reason must say, when only one reason is possible. */
  reason?: RegExp;
}

export const secrets = { current: 'fuzz-current-secret', previous: 'fuzz-previous-secret' };

/** Indentation grows with depth, so only small documents are pretty-printed. */
function encode(value: unknown, indent?: number | string): Buffer {
  const compact = JSON.stringify(value);
  return Buffer.from(
    compact.length < 8_192 && indent !== undefined ? JSON.stringify(value, null, indent) : compact,
  );
}

const longText = fc.string({ unit: 'binary', minLength: 200, maxLength: 1200 });

const everyUnprintable = new RegExp(unprintableCharacter.source, 'gu');

/** Text the receiver must take in a category, a type or a context: anything printable. */
const printableText = (arbitrary: fc.Arbitrary<string>) =>
  arbitrary.map((value) => value.replace(everyUnprintable, '?'));

/** Characters a terminal acts on: C0, DEL, C1 (8-bit CSI, OSC) and bidi overrides and isolates. */
const unprintable = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0080',
  '\u009b',
  '\u009d',
  '\u202e',
  '\u2066',
  '\u2069',
);

const timestamp = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((date) => {
    const iso = date.toISOString();
    return fc.constantFrom(
      iso,
      iso.replace(/\.\d{3}Z$/, 'Z'),
      iso.replace('Z', '+00:00'),
      iso.replace('Z', '-03:00'),
    );
  });

/** `{"a":{"a":...{"leaf":true}}}`, `depth + 1` objects, built without recursion. */
function deepObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

/** The members routes read, holding what a careless or hostile sender might put there. */
const routingValue = fc.oneof(
  text(40),
  longText,
  fc.constantFrom("a'b", 'a\\b', "x' OR BankflowKind != '", 'x\u0000y', '\u0000', '%_*', '', ' '),
);
const routingData = fc.record(
  {
    external_id: routingValue,
    device_id: routingValue,
    participant_id: routingValue,
    end_to_end_id: routingValue,
    recurrence_id: routingValue,
  },
  { requiredKeys: [] },
);

/** Deep enough to matter, shallow enough to stay within the receiver's depth limit inside an envelope. */
const deepButAllowed = fc.integer({ min: maxJsonDepth - 12, max: maxJsonDepth - 2 }).map(deepObject);

const randomData = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(text(16), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.dictionary(text(8), longText, { minKeys: 1, maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(text(8), fc.string({ minLength: 5_000, maxLength: 30_000 }), {
      minKeys: 1,
      maxKeys: 2,
    }),
  },
  { weight: 1, arbitrary: deepButAllowed },
);

const envelopeMembers = new Set([
  'category',
  'type',
  'ref_id',
  'timestamp',
  'data',
  'context_type',
  'context_id',
]);

/**
 * A spec-shaped envelope: a known or unknown category, maybe aimed at one of `aims`, maybe with extra
 * members.
 */
export function envelopeArbitrary(aims: Aim[]): fc.Arbitrary<Envelope> {
  const aim = aims.length ? fc.option(fc.constantFrom(...aims), { freq: 2 }) : fc.constant(null);
  return fc
    .record({
      aim,
      category: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...Object.values(webhookCategories)) },
        { weight: 2, arbitrary: printableText(text(40)) },
        { weight: 1, arbitrary: printableText(longText) },
      ),
      type: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom('created', 'authorized', 'awaiting_payment', 'settled', 'failed'),
        },
        { weight: 2, arbitrary: printableText(text(40)) },
        { weight: 1, arbitrary: printableText(longText) },
      ),
      ref_id: fc.uuid(),
      timestamp,
      data: randomData,
      routing: fc.option(routingData, { nil: undefined }),
      context: fc.option(fc.record({ context_type: printableText(text()), context_id: fc.uuid() }), {
        nil: undefined,
      }),
      extra: fc.dictionary(
        text(12).filter((key) => !envelopeMembers.has(key)),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
    })
    .map(({ aim, category, type, ref_id, timestamp, data, routing, context, extra }) => ({
      ...extra,
      category: aim?.category ?? category,
      type,
      ref_id: aim?.refId ?? ref_id,
      timestamp,
      // An aimed event carries only its aim's keys, so the route the receiver takes is known.
      data: aim ? { ...data, ...aim.data } : { ...data, ...routing },
      ...context,
    }));
}

export function validBodyArbitrary(aims: Aim[]): fc.Arbitrary<ValidBody> {
  return fc.tuple(envelopeArbitrary(aims), fc.constantFrom(undefined, 2, '\t')).map(([envelope, indent]) => {
    const body = encode(envelope, indent);
    return labelled({ envelope, body }, bodyLabel('valid envelope', body));
  });
}

const required = {
  category: 'string',
  type: 'string',
  ref_id: 'string',
  timestamp: 'string',
  data: 'object',
} as const;
type Required = keyof typeof required;
const requiredNames = Object.keys(required) as Required[];

const notUuids = fc.oneof(
  text(40).filter((value) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)),
  fc.uuid().map((id) => id.replaceAll('-', '')),
  fc.uuid().map((id) => `{${id}}`),
  fc.uuid().map((id) => `${id} `),
  fc.uuid().map((id) => id.slice(0, 35)),
);

const notTimestamps = fc.oneof(
  fc.constantFrom(
    'yesterday',
    '2026-13-01T00:00:00Z',
    '2026-11-22',
    '2026-11-22 10:00:00Z',
    '2026-11-22T25:00:00Z',
    '2026-11-22T10:00:00',
    '1700000000',
    'Sun, 22 Nov 2026 10:00:00 GMT',
  ),
  text(30).filter((value) => !/^\d{4}-/.test(value)),
);

function without(envelope: Envelope, member: string): Envelope {
  const copy = { ...envelope };
  delete copy[member];
  return copy;
}

/** Well-formed JSON that breaks the envelope's shape: a member dropped, retyped, emptied or malformed. */
export function mutatedEnvelopeArbitrary(aims: Aim[]): fc.Arbitrary<InvalidBody> {
  const envelope = envelopeArbitrary(aims);
  const mutated = fc.oneof(
    fc
      .tuple(envelope, fc.constantFrom(...requiredNames))
      .map(([e, member]) => ({ names: member, value: without(e, member) as unknown })),
    fc
      .tuple(envelope, fc.constantFrom(...requiredNames))
      .chain(([e, member]) =>
        jsonOtherThan(required[member]).map((wrong) => ({ names: member, value: { ...e, [member]: wrong } })),
      ),
    fc
      .tuple(envelope, fc.constantFrom('category', 'type'))
      .map(([e, member]) => ({ names: member, value: { ...e, [member]: '' } })),
    fc.tuple(envelope, fc.constantFrom('category', 'type'), unprintable).map(([e, member, character]) => ({
      names: member,
      value: { ...e, [member]: `${String(e[member])}${character}x` },
    })),
    fc.tuple(envelope, notUuids).map(([e, refId]) => ({ names: 'ref_id', value: { ...e, ref_id: refId } })),
    fc
      .tuple(envelope, notTimestamps)
      .map(([e, when]) => ({ names: 'timestamp', value: { ...e, timestamp: when } })),
    fc
      .tuple(envelope, fc.integer({ min: 1, max: maxJsonDepth - 3 }))
      .map(([e, depth]) => ({ names: 'data', value: { ...e, data: deepArray(depth) } })),
    fc
      .tuple(
        envelope,
        fc.constantFrom<(e: Envelope) => unknown>(
          (e) => [e],
          (e) => JSON.stringify(e),
          () => 42,
          () => null,
          () => true,
        ),
      )
      .map(([e, wrap]) => ({ names: 'body', value: wrap(e) })),
  );
  return mutated.map(({ names, value }) => {
    const body = encode(value);
    return labelled({ breaks: `${names} broken`, names, body }, bodyLabel(`${names} broken`, body));
  });
}

/** The envelope with `data` spliced in as text, for documents too deep for JSON.stringify. */
function withRawData(envelope: Envelope, data: string): Buffer {
  const placeholder = '"__data__"';
  const [before, after] = JSON.stringify({ ...envelope, data: '__data__' }).split(placeholder);
  return Buffer.from(`${before ?? ''}${data}${after ?? ''}`);
}

function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** Byte sequences no UTF-8 decoder may accept: stray continuation, overlong, surrogate, truncated, 0xFF. */
const invalidUtf8 = fc.constantFrom(
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xff],
  [0xfe, 0xff],
);

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/**
 * Bodies that are not strict JSON text: cut short, not UTF-8, holding an unpaired surrogate (`\ud800`, legal
 * JSON grammar but no Unicode string), nested deeper than the receiver allows, or noise.
 */
export function brokenJsonArbitrary(aims: Aim[]): fc.Arbitrary<InvalidBody> {
  const body = validBodyArbitrary(aims).map((valid) => valid.body);
  const broken = fc.oneof(
    body.chain((bytes) =>
      fc.nat({ max: bytes.length - 1 }).map((end) => ({ breaks: 'truncated', body: bytes.subarray(0, end) })),
    ),
    fc
      .tuple(envelopeArbitrary(aims), invalidUtf8, fc.constantFrom('category', 'type', 'data'))
      .map(([e, bytes, member]) => {
        const marker = '\u0001MARK\u0001';
        const value =
          member === 'data' ? { ...(e.data as object), note: marker } : `${String(e[member])}${marker}`;
        const [before, after] = JSON.stringify({ ...e, [member]: value }).split(
          JSON.stringify(marker).slice(1, -1),
        );
        return {
          breaks: `invalid UTF-8 in ${member}`,
          body: Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bytes), Buffer.from(after ?? '')]),
        };
      }),
    fc
      .tuple(
        envelopeArbitrary(aims),
        loneSurrogate,
        fc.constantFrom('category', 'type', 'data value', 'data key'),
      )
      .map(([e, surrogate, where]) => {
        const data = e.data as Record<string, unknown>;
        const placed =
          where === 'category' || where === 'type'
            ? { ...e, [where]: `${String(e[where])}${surrogate}` }
            : {
                ...e,
                data: where === 'data key' ? { ...data, [surrogate]: 1 } : { ...data, note: surrogate },
              };
        return {
          breaks: `unpaired surrogate in ${where}`,
          reason: /unpaired UTF-16 surrogate/,
          body: encode(placed),
        };
      }),
    fc
      .tuple(envelopeArbitrary(aims), fc.integer({ min: maxJsonDepth - 1, max: 10_000 }))
      .map(([e, depth]) => ({
        breaks: 'data nested too deep',
        reason: /nests deeper than/,
        body: withRawData(e, `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`),
      })),
    fc.integer({ min: maxJsonDepth + 1, max: 10_000 }).map((depth) => ({
      breaks: 'nested arrays',
      reason: /nests deeper than/,
      body: Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    })),
    fc.integer({ min: 1_000, max: 10_000 }).map((depth) => ({
      breaks: 'unclosed nesting',
      reason: /not valid JSON/,
      body: Buffer.from(`${'{"a":'.repeat(depth)}1`),
    })),
    fc
      .string({ unit: 'binary', maxLength: 200 })
      .map((value) => ({ breaks: 'random text', body: Buffer.from(value) })),
    fc
      .uint8Array({ minLength: 1, maxLength: 300 })
      .map((bytes) => ({ breaks: 'random bytes', body: Buffer.from(bytes) })),
  );
  return broken.map((invalid) => labelled(invalid, bodyLabel(invalid.breaks, invalid.body)));
}

/** How a request proves it comes from the bank, and whether that proof must be accepted. */
export interface AuthCase {
  name: string;
  valid: boolean;
  headers(body: Buffer): [string, string][];
}

const sign = (body: Buffer | string, secret = secrets.current) => signWebhookBody(body, secret);

const validAuthCases: AuthCase[] = [
  { name: 'signature', valid: true, headers: (body) => [[webhookHeaders.signature, sign(body)]] },
  {
    name: 'signature with the previous secret',
    valid: true,
    headers: (body) => [[webhookHeaders.signature, sign(body, secrets.previous)]],
  },
  {
    name: 'signature in upper case hex under a capitalized name',
    valid: true,
    headers: (body) => [['X-Webhook-Signature', sign(body).toUpperCase()]],
  },
  { name: 'shared secret alone', valid: true, headers: () => [[webhookHeaders.secret, secrets.current]] },
  {
    name: 'signature and shared secret',
    valid: true,
    headers: (body) => [
      [webhookHeaders.signature, sign(body)],
      [webhookHeaders.secret, secrets.previous],
    ],
  },
];

export const validAuth = validAuthCases.map((auth) => labelled(auth, auth.name));

const printable = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });

export const invalidAuth: fc.Arbitrary<AuthCase> = fc
  .oneof(
    fc.constant<AuthCase>({ name: 'no credentials', valid: false, headers: () => [] }),
    printable(80).map<AuthCase>((garbled) => ({
      name: 'garbled signature',
      valid: false,
      headers: () => [[webhookHeaders.signature, garbled]],
    })),
    fc.constant<AuthCase>({
      name: 'signature with an unknown secret',
      valid: false,
      headers: (body) => [[webhookHeaders.signature, sign(body, 'not-the-secret')]],
    }),
    fc.constant<AuthCase>({
      name: 'signature of another body',
      valid: false,
      headers: (body) => [[webhookHeaders.signature, sign(Buffer.concat([body, Buffer.from(' ')]))]],
    }),
    fc.constant<AuthCase>({
      name: 'signature one digit short',
      valid: false,
      headers: (body) => [[webhookHeaders.signature, sign(body).slice(1)]],
    }),
    fc.constant<AuthCase>({
      name: 'signature with a trailing byte',
      valid: false,
      headers: (body) => [[webhookHeaders.signature, `${sign(body)}00`]],
    }),
    printable(40).map<AuthCase>((guess) => ({
      name: 'wrong shared secret',
      valid: false,
      headers: () => [[webhookHeaders.secret, guess]],
    })),
    fc.constant<AuthCase>({
      name: 'right shared secret, wrong signature',
      valid: false,
      headers: (body) => [
        [webhookHeaders.secret, secrets.current],
        [webhookHeaders.signature, sign(body, 'not-the-secret')],
      ],
    }),
    fc.constant<AuthCase>({
      name: 'signature header twice',
      valid: false,
      headers: (body) => [
        [webhookHeaders.signature, sign(body)],
        [webhookHeaders.signature, sign(body)],
      ],
    }),
    fc.constant<AuthCase>({
      name: 'shared secret header twice',
      valid: false,
      headers: () => [
        [webhookHeaders.secret, secrets.current],
        [webhookHeaders.secret, secrets.current],
      ],
    }),
  )
  .map((auth) => labelled({ ...auth }, auth.name));

/** The content-type headers of a request, and whether they announce JSON. */
export interface ContentTypeCase {
  headers: [string, string][];
  json: boolean;
}

export const jsonContentTypes: ContentTypeCase[] = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'application/vnd.bank.webhook+json',
  'application/cloudevents+json; charset=utf-8',
].map((value) => labelled<ContentTypeCase>({ headers: [['content-type', value]], json: true }, value));

export const otherContentTypes: fc.Arbitrary<ContentTypeCase> = fc
  .oneof(
    fc.constant<ContentTypeCase>({ headers: [], json: false }),
    fc
      .constantFrom(
        'text/plain',
        'text/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'application/xml',
        'application/jsonp',
        'application/json-seq',
        'application/octet-stream',
        'json',
        '',
      )
      .map((value): ContentTypeCase => ({ headers: [['content-type', value]], json: false })),
    printable(40)
      .filter((value) => !/^\s*application\//i.test(value))
      .map((value): ContentTypeCase => ({ headers: [['content-type', value]], json: false })),
  )
  .map((type) => labelled({ ...type }, JSON.stringify(type.headers)));

/** Node keeps the first of repeated content-type headers, so the first one decides. */
export const repeatedContentType: fc.Arbitrary<ContentTypeCase> = fc
  .tuple(fc.constantFrom(...jsonContentTypes), otherContentTypes)
  .chain(([json, other]) =>
    fc.constantFrom<ContentTypeCase>(
      { headers: [...json.headers, ['content-type', 'text/plain']], json: true },
      { headers: [['content-type', 'text/plain'], ...json.headers], json: false },
      { headers: [...other.headers, ...json.headers], json: other.headers.length === 0 },
    ),
  )
  .map((type) => labelled({ ...type }, JSON.stringify(type.headers)));
