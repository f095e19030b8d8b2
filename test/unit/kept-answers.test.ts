import { KeptAnswers, keptAnswerLimits } from '../../src/api/kept-answers.js';
import { ApiProblem } from '../../src/api/problems.js';

const scope = (key: string) => ({ hash: key });

describe('the answers an API process keeps for POSTs that start nothing in Temporal', () => {
  it('answers repeats of a request with its first answer, asking once, even when they arrive together', async () => {
    const kept = new KeptAnswers();
    let asked = 0;
    const ask = async () => ({ id: `device-${++asked}` });
    const answers = await Promise.all([1, 2, 3].map(() => kept.answer(scope('k'), { a: 1 }, ask)));
    expect(answers).toEqual([{ id: 'device-1' }, { id: 'device-1' }, { id: 'device-1' }]);
    expect(await kept.answer(scope('k'), { a: 1 }, ask)).toEqual({ id: 'device-1' });
    expect(asked).toBe(1);
  });

  it('refuses the key with another request, 409 naming the header', async () => {
    const kept = new KeptAnswers();
    await kept.answer(scope('k'), { a: 1 }, async () => 'first');
    const refusal = await kept
      .answer(scope('k'), { a: 2 }, async () => 'second')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiProblem);
    expect(refusal).toMatchObject({ status: 409, kind: 'idempotency-key-reused' });
    expect((refusal as ApiProblem).errors.map((error) => error.field)).toEqual(['Idempotency-Key']);
  });

  it('keeps no failure: the same key asks again', async () => {
    const kept = new KeptAnswers();
    await expect(
      kept.answer(scope('k'), {}, async () => Promise.reject(new Error('bank down'))),
    ).rejects.toThrow('bank down');
    expect(await kept.answer(scope('k'), {}, async () => 'answered')).toBe('answered');
  });

  it(`keeps at most ${keptAnswerLimits.entries} answers, the oldest going first, whatever the requests`, async () => {
    const kept = new KeptAnswers();
    let asked = 0;
    for (let index = 0; index <= keptAnswerLimits.entries; index++)
      await kept.answer(scope(`k${index}`), {}, async () => ++asked);
    expect(await kept.answer(scope(`k${keptAnswerLimits.entries}`), {}, async () => ++asked)).toBe(asked);
    expect(await kept.answer(scope('k0'), {}, async () => 'asked again')).toBe('asked again');
  });
});
