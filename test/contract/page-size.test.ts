import { randomUUID } from 'node:crypto';
import { maxCollectionAttemptPageSize } from '../../src/bank/schemas/collection-attempt.js';
import { fixedNow, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

const attemptsPath = '/banking/cashin/pix/recurrences/collections/attempts';
const window = `from_datetime=2020-01-01T00:00:00Z&to_datetime=${fixedNow.toISOString()}`;

/** Every list the bank serves, with the parameters it requires, and the family's error form. */
const lists = [
  { path: attemptsPath, query: '', form: 'list' },
  { path: '/banking/cashin/pix/biometrics/enrollments', query: `device_id=${randomUUID()}&`, form: 'list' },
  { path: '/biometrics/participants', query: '', form: 'list' },
  { path: '/banking/cashout/transfer', query: `${window}&`, form: 'single' },
  { path: '/banking/cashin/refunds', query: `${window}&`, form: 'single' },
] as const;

describe('page size on every list of the sandbox bank (docs/decisions.md, "Page size")', () => {
  let bank: DataSandbox;

  beforeAll(async () => {
    bank = await startDataSandbox();
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it.each(['0', '-5', '1.5', 'ten', ''])(
    'answers limit=%p with 400 INVALID_PARAMETER at /query/limit on every list, in its family form',
    async (limit) => {
      for (const list of lists) {
        const answer = await bank.raw(`${list.path}?${list.query}limit=${limit}`);
        expect({ path: list.path, status: answer.statusCode }).toEqual({ path: list.path, status: 400 });
        if (list.form === 'list') {
          expect(answer.json().errors).toEqual([
            expect.objectContaining({ title: 'INVALID_PARAMETER', source: { pointer: '/query/limit' } }),
          ]);
        } else {
          expect(answer.json().error).toEqual({
            error_code: 'INVALID_PARAMETER',
            error_message: expect.stringMatching(/^limit: /),
          });
        }
      }
    },
  );

  it('serves 50 attempts by default, `limit` of them from 1 up, and no more than 100 however many are asked', async () => {
    const sizes = async (query: string) => (await bank.raw(`${attemptsPath}${query}`)).json().data.length;
    expect(bank.sandbox.state.bankData.attempts.size).toBeGreaterThan(maxCollectionAttemptPageSize);
    expect(await sizes('')).toBe(50);
    expect(await sizes('?limit=1')).toBe(1);
    expect(await sizes('?limit=100')).toBe(maxCollectionAttemptPageSize);
    expect(await sizes('?limit=500')).toBe(maxCollectionAttemptPageSize);
  });
});
