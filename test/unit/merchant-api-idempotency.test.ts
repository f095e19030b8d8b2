import { ApiProblem } from '../../src/api/problems.js';
import { derivedId, differingFields, fingerprintOf, idempotencyScope } from '../../src/api/idempotency.js';
import { externalId } from '../../src/starter/payments.js';

const request = (body: unknown, path = '/v1/payments') => ({ method: 'POST', path, body });

describe('the Idempotency-Key fingerprint', () => {
  const scope = idempotencyScope('checkout-backend', 'order-42-attempt-1');
  const body = {
    amountCents: 1_990,
    customerTaxNumber: '12345678909',
    suggestedAccount: { ispb: '00000000', number: '1234-5' },
  };

  it('holds a keyed hash per field path and no value of the request', () => {
    const fingerprint = fingerprintOf(scope, request(body));
    expect(Object.keys(fingerprint.fields).sort()).toEqual([
      'amountCents',
      'customerTaxNumber',
      'suggestedAccount.ispb',
      'suggestedAccount.number',
    ]);
    const kept = JSON.stringify(fingerprint);
    for (const value of ['12345678909', '1234-5', '1990', '/v1/payments']) expect(kept).not.toContain(value);
    // Keyed by the Idempotency-Key: the same CPF under another key hashes otherwise, so no table of CPFs reverses it.
    const other = fingerprintOf(idempotencyScope('checkout-backend', 'another-key'), request(body));
    expect(other.fields.customerTaxNumber).not.toBe(fingerprint.fields.customerTaxNumber);
  });

  it('finds the same request whatever the order of its members, and names every differing field', () => {
    const reordered = {
      suggestedAccount: { number: '1234-5', ispb: '00000000' },
      customerTaxNumber: '12345678909',
      amountCents: 1_990,
    };
    const first = fingerprintOf(scope, request(body));
    expect(differingFields(first, fingerprintOf(scope, request(reordered)))).toEqual([]);
    const without: Partial<typeof body> = { ...body, amountCents: 2_000 };
    delete without.customerTaxNumber;
    expect(differingFields(first, fingerprintOf(scope, request(without)))).toEqual([
      'amountCents',
      'customerTaxNumber',
    ]);
    expect(differingFields(first, fingerprintOf(scope, request(body, '/v1/enrollments')))).toEqual([
      '(method and path)',
    ]);
  });

  it('derives the same ids from the same key on any process, valid as external ids, and other ids from others', () => {
    const id = derivedId(scope, 'payment');
    expect(derivedId(idempotencyScope('checkout-backend', 'order-42-attempt-1'), 'payment')).toBe(id);
    expect(externalId.safeParse(id).success).toBe(true);
    expect(derivedId(scope, 'request')).not.toBe(id);
    expect(derivedId(idempotencyScope('reports-service', 'order-42-attempt-1'), 'payment')).not.toBe(id);
  });

  it('refuses a missing or unprintable key with a 400 naming the header', () => {
    for (const header of [undefined, '', 'two words', 'x'.repeat(256)]) {
      const refused = (() => {
        try {
          idempotencyScope('checkout-backend', header);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refused).toBeInstanceOf(ApiProblem);
      expect(refused).toMatchObject({ status: 400, errors: [{ field: 'Idempotency-Key' }] });
    }
  });
});
