import type { FastifyRequest } from 'fastify';
import { authenticate } from '../../src/api/auth.js';
import { developmentApiKey, developmentApiKeyEntry, hashApiKey, mintApiKey } from '../../src/api/keys.js';
import { ApiProblem } from '../../src/api/problems.js';

const withBearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } }) as FastifyRequest;

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('merchant API authentication', () => {
  const live = mintApiKey('checkout-backend');
  const minted = `bf_dev_${live.key.slice('bf_live_'.length)}`;
  const keys = [live.entry, developmentApiKeyEntry, { name: 'local-try', sha256: hashApiKey(minted) }];

  it('names the key a request carries, a development key only where development keys are accepted', () => {
    expect(authenticate(keys, withBearer(live.key), 'refused')).toBe('checkout-backend');
    expect(authenticate(keys, withBearer(developmentApiKey), 'accepted')).toBe(developmentApiKeyEntry.name);
    expect(authenticate(keys, withBearer(minted), 'accepted')).toBe('local-try');
  });

  it('refuses a bf_dev_ key outside development even when API_KEYS holds its hash, saying how to mint one', () => {
    for (const key of [developmentApiKey, minted]) {
      const refused = refusal(() => authenticate(keys, withBearer(key), 'refused'));
      expect(refused).toBeInstanceOf(ApiProblem);
      expect(refused).toMatchObject({
        status: 401,
        errors: [{ field: 'Authorization', reason: 'is a development key' }],
      });
      expect((refused as ApiProblem).message).toContain('BANKFLOW_ENV=production bankflow api-key create');
    }
  });
});
