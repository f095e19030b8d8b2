import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { openApiDocument } from '../../src/api/openapi.js';
import { apiRoutes } from '../../src/api/routes/index.js';

interface Operation {
  operationId: string;
  parameters: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
}

describe("the merchant API's OpenAPI document", () => {
  it('is a valid OpenAPI 3.1 document, as a standard validator reads it', async () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    const result = await validate(committed);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.specification).toBe('OpenAPI');
    expect(committed.openapi).toBe('3.1.0');
  });

  it('describes every route of the table, each POST with its Idempotency-Key and every failure as a problem', () => {
    const document = openApiDocument(apiRoutes);
    for (const route of apiRoutes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
      expect(operation.operationId).toBe(route.operationId);
      const headers = operation.parameters.filter((parameter) => parameter.in === 'header');
      expect(headers.map((header) => header.name)).toEqual(
        route.method === 'POST' ? ['Idempotency-Key'] : [],
      );
      expect(operation.responses['4XX']?.content['application/problem+json']?.schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
    }
    const startPayment = document.paths['/v1/payments']?.post as Operation;
    const body = startPayment.requestBody?.content['application/json']?.schema as { required: string[] };
    expect(body.required).toEqual(
      expect.arrayContaining(['enrollmentId', 'deviceId', 'amountCents', 'description']),
    );
    expect(body.required).not.toContain('externalId');
  });
});
