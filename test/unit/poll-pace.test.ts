import { paymentTimings } from '../../src/contract/payment.js';
import { pollStretchFactor, stretchedPollInterval } from '../../src/contract/journeys.js';
import { defaultPolling } from '../../src/workflows/shared/follow-bank.js';

const minutes = (n: number) => n * 60_000;

describe('stretching the wait between polls by the last poll wait', () => {
  it('never waits less than the plan, and waits as planned while polls are answered at once', () => {
    expect(stretchedPollInterval(20_000, 150, defaultPolling.stretchCeilingMs)).toBe(20_000);
    expect(
      stretchedPollInterval(minutes(30), minutes(1), paymentTimings.sparsePolling.stretchCeilingMs),
    ).toBe(minutes(30));
    // Settings without a ceiling (tests, the chaos run, enrollments) are never stretched.
    expect(stretchedPollInterval(1_000, minutes(5), undefined)).toBe(1_000);
  });

  it('stretches to the factor times the last wait, up to the ceiling of the stage', () => {
    expect(stretchedPollInterval(20_000, 12_000, defaultPolling.stretchCeilingMs)).toBe(
      pollStretchFactor * 12_000,
    );
    // Awaiting consent and the first hour of processing: never more than the consent window apart.
    expect(defaultPolling.stretchCeilingMs).toBe(minutes(5));
    expect(stretchedPollInterval(20_000, minutes(3), defaultPolling.stretchCeilingMs)).toBe(minutes(5));
    // Processing after its first hour: never more than two hours apart.
    const sparse = paymentTimings.sparsePolling;
    expect(sparse.stretchCeilingMs).toBe(minutes(120));
    expect(stretchedPollInterval(sparse.firstPollAfterMs, minutes(6), sparse.stretchCeilingMs)).toBe(
      minutes(60),
    );
    expect(stretchedPollInterval(sparse.firstPollAfterMs, minutes(40), sparse.stretchCeilingMs)).toBe(
      minutes(120),
    );
    // Each ceiling leaves room for the plan's own longest wait.
    expect(defaultPolling.stretchCeilingMs).toBeGreaterThanOrEqual(defaultPolling.maxPollIntervalMs);
    expect(sparse.stretchCeilingMs).toBeGreaterThanOrEqual(sparse.maxPollIntervalMs);
  });
});
