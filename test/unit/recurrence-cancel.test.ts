import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import type { Recurrence } from '../../src/bank/schemas/recurrence.js';
import { checkCancel } from '../../src/workflows/recurrence/cancel.js';
import { RecurrenceJourney } from '../../src/workflows/recurrence/state.js';

const request = exampleRecurrenceRequest({
  externalId: 'contract-1',
  virtualAccountId: 'd815e13b-fd7d-4e41-8e50-9ce011ac5341',
});
const generatedAs = (status: string) => {
  const journey = new RecurrenceJourney({ request }, 10);
  journey.generated({ id: 'r-1', external_id: 'contract-1', status } as unknown as Recurrence);
  return journey;
};
const refusalOf = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe("the recurrence cancel's validator", () => {
  it('takes a reason of 1 to 500 characters for an active recurrence', () => {
    const journey = generatedAs('approved');
    expect(refusalOf(() => checkCancel({ reason: 'customer ended the contract' }, journey))).toBe('accepted');
    expect(refusalOf(() => checkCancel({ reason: 'x'.repeat(500) }, journey))).toBe('accepted');
  });

  it('refuses a missing, blank or too long reason, naming the field', () => {
    const journey = generatedAs('approved');
    const required = 'reason: required, a non-empty text saying why the recurrence is cancelled';
    expect(refusalOf(() => checkCancel(undefined, journey))).toBe(required);
    expect(refusalOf(() => checkCancel({ reason: 42 } as never, journey))).toBe(required);
    expect(refusalOf(() => checkCancel({ reason: ' \t' }, journey))).toBe(required);
    expect(refusalOf(() => checkCancel({ reason: 'x'.repeat(501) }, journey))).toBe(
      'reason: at most 500 characters, got 501',
    );
  });

  it('refuses a recurrence that has ended, at the bank or by an earlier cancel', () => {
    expect(refusalOf(() => checkCancel({ reason: 'late' }, generatedAs('cancelled')))).toBe(
      'the recurrence has already ended (cancelled): the bank reports the recurrence cancelled',
    );
    const stopped = generatedAs('approved');
    stopped.cancelRequested('first');
    stopped.stop();
    expect(refusalOf(() => checkCancel({ reason: 'second' }, stopped))).toMatch(
      /^the recurrence has already ended \(stopped\): cancelled by the merchant: first\. /,
    );
  });
});
