import { z } from 'zod';
import { maxParamLength } from '../../src/api/app.js';
import { idempotencyKeyPattern } from '../../src/api/idempotency.js';
import { openApiDocument, unprintablePattern } from '../../src/api/openapi.js';
import { maxBodyBytes, maxBodyDepth, route } from '../../src/api/route.js';
import { apiRoutes } from '../../src/api/routes/index.js';
import { printable, unprintableCharacter } from '../../src/bank/schemas/printable.js';
import { maxJsonLength } from '../../src/bank/schemas/text.js';
import { taxNumberInput } from '../../src/starter/customer-key.js';

interface Schema {
  type?: string;
  pattern?: string;
  maxLength?: number;
  description?: string;
  not?: { pattern: string };
  properties?: Record<string, Schema>;
}
interface Operation {
  parameters: { in: string; name: string; schema: Schema }[];
  requestBody?: { description: string; content: { 'application/json': { schema: Schema } } };
}

const document = openApiDocument(apiRoutes);
const operation = (path: string, method: 'get' | 'post') => document.paths[path]?.[method] as Operation;
const body = (path: string) => operation(path, 'post').requestBody?.content['application/json'].schema;

/** A JSON Schema pattern as a client's validator reads it. */
const matches = (pattern: string | undefined, value: string) => new RegExp(pattern ?? '(?!)').test(value);

describe('the rules the OpenAPI document states', () => {
  it("states the control and bidi override characters as ranges that match exactly the server's class", () => {
    const pattern = new RegExp(unprintablePattern);
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (pattern.test(character) !== unprintableCharacter.test(character))
        throw new Error(`U+${codePoint.toString(16)} is not stated as the server refuses it`);
    }
  });

  it('states the rules of custom checks, which zod leaves out of JSON Schema, by asking each check', () => {
    const onlyNoNewline = z.string().refine((value) => !value.includes('\n'));
    const described = openApiDocument([
      route({
        method: 'POST',
        path: '/v1/things',
        operationId: 'postThing',
        tag: 'Things',
        summary: 'A thing',
        body: z.object({ name: printable.check(maxJsonLength(7)), note: onlyNoNewline }),
        call: async () => ({ body: {} }),
      }),
    ]);
    const thing = described.paths['/v1/things']?.post as Operation;
    const properties = thing.requestBody?.content['application/json'].schema.properties ?? {};
    expect(properties.name).toMatchObject({ maxLength: 7, not: { pattern: unprintablePattern } });
    // A check that refuses one control character is not taken for one refusing them all.
    expect(properties.note?.not).toBeUndefined();
  });

  it("states a recurrence's external_id at most 100, and no control characters in its text", () => {
    const recurrence = body('/v1/recurrences');
    expect(recurrence?.properties?.external_id).toMatchObject({
      maxLength: 100,
      not: { pattern: unprintablePattern },
    });
    expect(recurrence?.properties?.description?.not).toEqual({ pattern: unprintablePattern });
    expect(body('/v1/payments')?.properties?.description).toMatchObject({
      maxLength: 140,
      not: { pattern: unprintablePattern },
    });
  });

  it('states the CPF or CNPJ form of every tax number, as the server takes it', () => {
    const devices = body('/v1/devices')?.properties?.counterparty_tax_number?.pattern;
    const recurrence = body('/v1/recurrences')?.properties?.counterparty?.properties?.tax_number?.pattern;
    const customer = body('/v1/payments')?.properties?.customerTaxNumber;
    expect(body('/v1/enrollments')?.properties?.customerTaxNumber).toEqual(customer);
    expect(customer?.description).toMatch(/CPF.*CNPJ/);
    for (const digits of ['12345678909', '12345678000195']) {
      expect(matches(devices, digits)).toBe(true);
      expect(matches(recurrence, digits)).toBe(true);
    }
    for (const given of [
      '123.456.789-09',
      '12.345.678/0001-95',
      '12345678909',
      '1234567890',
      '1234567890123',
      'x',
    ])
      expect(matches(customer?.pattern, given)).toBe(taxNumberInput.safeParse(given).success);
  });

  it('states a non-blank cancel reason of at most 500 characters', () => {
    const reason = body('/v1/recurrences/{externalId}/cancellation')?.properties?.reason;
    expect(reason).toMatchObject({ maxLength: 500, not: { pattern: unprintablePattern } });
    expect(matches(reason?.pattern, ' \t ')).toBe(false);
    expect(matches(reason?.pattern, ' why ')).toBe(true);
  });

  it("states the Idempotency-Key's characters, the body's size and depth, and the longest path parameter", () => {
    for (const definition of apiRoutes.filter((candidate) => candidate.method === 'POST')) {
      const post = operation(definition.path, 'post');
      const key = post.parameters.find((parameter) => parameter.in === 'header');
      expect(key?.schema.pattern).toBe(idempotencyKeyPattern.source);
      expect(post.requestBody?.description).toContain(`at most ${maxBodyBytes} bytes`);
      expect(post.requestBody?.description).toContain(`at most ${maxBodyDepth} levels deep`);
    }
    expect(matches(idempotencyKeyPattern.source, 'key with space')).toBe(false);
    expect(document.info.description).toContain(`routed up to ${maxParamLength} characters`);
  });
});
