import { externalId } from '../../src/starter/payments.js';
import { derivedId, idempotencyScope } from '../../src/api/idempotency.js';
import { ApiProblem } from '../../src/api/problems.js';

describe('merchant API Idempotency-Key', () => {
  const start = { method: 'POST', path: '/v1/payments' };
  const scope = idempotencyScope('order-42-attempt-1', start);

  it('derives the same ids from the same key on any process, valid as external ids, and other ids from others', () => {
    const id = derivedId(scope, 'payment');
    expect(derivedId(idempotencyScope('order-42-attempt-1', start), 'payment')).toBe(id);
    expect(externalId.safeParse(id).success).toBe(true);
    expect(derivedId(scope, 'request')).not.toBe(id);
    expect(derivedId(idempotencyScope('order-42-attempt-2', start), 'payment')).not.toBe(id);
  });

  it('takes the same key on another route as another request', () => {
    const onAuthorization = idempotencyScope('order-42-attempt-1', {
      method: 'POST',
      path: '/v1/payments/order-42/authorization',
    });
    expect(derivedId(onAuthorization, 'request')).not.toBe(derivedId(scope, 'request'));
  });

  it('refuses a missing or unprintable key with a 400 naming the header', () => {
    for (const header of [undefined, '', 'two words', 'x'.repeat(256)]) {
      const refused = (() => {
        try {
          idempotencyScope(header, start);
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
