import { BankClient } from '../../src/bank/client.js';
import { BankRateLimitedError, BankUnauthorizedError, BankUnavailableError } from '../../src/bank/errors.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import type { FaultInjector, FaultSettings } from '../../devkit/sandbox/faults.js';
import { sandboxControl } from '../helpers/sandbox-control.js';

const credentials = { clientId: 'test-client', clientSecret: 'test-secret' };
const logger = createLogger('silent');

/**
 * Binomial bound: n independent draws at rate p land within 3 standard deviations of n * p for all but ~0.3%
 * of seeds. The seed is fixed, so the count never changes between runs; the bound shows the configured rate
 * is the one applied (a rate ignored, applied twice or to the wrong calls falls far outside it).
 */
function expectRate(count: number, n: number, p: number): void {
  const sigma = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(count - n * p)).toBeLessThanOrEqual(3 * sigma);
}

type Outcome = 'ok' | `unavailable ${number}` | `rate-limited ${number}` | `other ${string}`;

function outcomeOf(error: unknown): Outcome {
  if (error instanceof BankRateLimitedError) return `rate-limited ${error.retryAfterMs ?? -1}`;
  if (error instanceof BankUnavailableError) return `unavailable ${error.context.status ?? -1}`;
  return `other ${String(error)}`;
}

describe('fault injection on the bank endpoints, through the real client', () => {
  let sandbox: RunningSandbox;
  let bank: BankClient;
  let boletoIds: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 42,
      now: new Date('2025-06-01T12:00:00Z'),
      credentials,
      logger,
    });
    bank = new BankClient({ ...credentials, baseUrl: sandbox.url, timeoutMs: 5_000 }, logger);
    boletoIds = [...sandbox.state.boletos.keys()];
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  beforeEach(async () => {
    expect((await sandboxControl(sandbox.url).post('/sandbox/reset', {})).status).toBe(200);
  });

  async function configure(settings: Partial<FaultSettings>): Promise<void> {
    const response = await sandboxControl(sandbox.url).put('/sandbox/faults', settings);
    expect(response.status).toBe(200);
  }

  async function injected(): Promise<FaultInjector['injected']> {
    const response = await sandboxControl(sandbox.url).get<{ data: { injected: FaultInjector['injected'] } }>(
      '/sandbox/faults',
    );
    return response.body.data.injected;
  }

  /**
   * `count` boleto cancellations, `concurrency` at a time; each call's outcome and duration, in call order.
   */
  async function cancelMany(count: number, concurrency = 1) {
    const results: { outcome: Outcome; ms: number }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        const started = performance.now();
        const outcome = await bank
          .cancelBoleto(boletoIds[index % boletoIds.length] ?? '')
          .then(
            (boleto): Outcome => (boleto.status === 'cancelled' ? 'ok' : `other ${boleto.status}`),
            outcomeOf,
          );
        results[index] = { outcome, ms: performance.now() - started };
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return results;
  }

  const count = (results: { outcome: Outcome }[], outcome: Outcome) =>
    results.filter((result) => result.outcome === outcome).length;

  it('answers error_rate of the calls with 500 INTEGRATION_ERROR, surfaced as BankUnavailableError', async () => {
    await configure({ seed: 11, error_rate: 0.2 });
    const results = await cancelMany(300);

    const failures = count(results, 'unavailable 500');
    expect(failures + count(results, 'ok')).toBe(300);
    expectRate(failures, 300, 0.2);
    expect((await injected()).errors).toBe(failures);

    await configure({ seed: 11, error_rate: 1 });
    const error = await bank.cancelBoleto(boletoIds[0] ?? '').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect(error).toMatchObject({ bankCode: 'INTEGRATION_ERROR', retryable: true, context: { status: 500 } });

    await configure({ seed: 11, error_rate: 0.2 });
    const again = await cancelMany(300);
    expect(again.map((result) => result.outcome)).toEqual(results.map((result) => result.outcome));
    await configure({ seed: 12, error_rate: 0.2 });
    const otherSeed = await cancelMany(300);
    expect(otherSeed.map((result) => result.outcome)).not.toEqual(results.map((result) => result.outcome));
  });

  it('answers rate_limit_rate of the calls with 429 and Retry-After, surfaced as BankRateLimitedError', async () => {
    await configure({ seed: 21, rate_limit_rate: 0.15, retry_after_seconds: 3 });
    const results = await cancelMany(300);

    const limited = count(results, 'rate-limited 3000');
    expect(limited + count(results, 'ok')).toBe(300);
    expectRate(limited, 300, 0.15);
    expect((await injected()).rateLimited).toBe(limited);

    await configure({ seed: 21, rate_limit_rate: 0.15, retry_after_seconds: 3 });
    expect((await cancelMany(300)).map((result) => result.outcome)).toEqual(
      results.map((result) => result.outcome),
    );
  });

  it('draws the 500s first and rate-limits a share of the remaining calls when both are set', async () => {
    await configure({ seed: 31, error_rate: 0.1, rate_limit_rate: 0.1 });
    const results = await cancelMany(300);
    const state = await injected();

    expect(count(results, 'unavailable 500')).toBe(state.errors);
    expect(count(results, 'rate-limited 1000')).toBe(state.rateLimited);
    expectRate(state.errors, 300, 0.1);
    expectRate(state.rateLimited, 300, 0.9 * 0.1);
  });

  it('adds latency to every call and a spike to latency_spike_rate of them', async () => {
    const settings = { seed: 41, latency_ms: 10, latency_spike_rate: 0.25, latency_spike_ms: 150 };
    await configure(settings);
    const results = await cancelMany(100);
    const spikes = (await injected()).latencySpikes;

    expect(results.every((result) => result.outcome === 'ok' && result.ms >= 9)).toBe(true);
    expectRate(spikes, 100, 0.25);
    // Every spiked call is at least this slow. How many unspiked calls look as slow depends on the machine's
    // load (a loaded machine stalls local calls too), so only the lower bound is the sandbox's to keep.
    const slow = results.filter((result) => result.ms >= 159).length;
    expect(slow).toBeGreaterThanOrEqual(spikes);

    // The same seed spikes the same number of calls, however many run at once.
    await sandboxControl(sandbox.url).post('/sandbox/reset', {});
    await configure(settings);
    await cancelMany(100, 8);
    expect((await injected()).latencySpikes).toBe(spikes);
  });

  it('fails exactly the next matching calls of each fail_next rule, before any rate applies', async () => {
    await configure({
      seed: 51,
      error_rate: 1,
      retry_after_seconds: 7,
      fail_next: [
        { method: 'GET', count: 5, status: 500 },
        { method: 'put', path_prefix: '/banking/cashin/boletos/', count: 3, status: 503 },
        { path_prefix: '/banking/cashin/boletos/', count: 2, status: 429 },
      ],
    });
    const results = await cancelMany(7);

    expect(results.map((result) => result.outcome)).toEqual([
      'unavailable 503',
      'unavailable 503',
      'unavailable 503',
      'rate-limited 7000',
      'rate-limited 7000',
      'unavailable 500',
      'unavailable 500',
    ]);
    const state = await sandboxControl(sandbox.url).get<{
      data: { settings: FaultSettings; injected: FaultInjector['injected'] };
    }>('/sandbox/faults');
    expect(state.body.data.settings.fail_next.map((rule) => rule.count)).toEqual([5, 0, 0]);
    expect(state.body.data.injected).toMatchObject({ ruleFailures: 5, errors: 2 });
  });

  it('checks credentials before any fault, and leaves the control API alone', async () => {
    await configure({ seed: 61, error_rate: 1, latency_ms: 0 });
    const stranger = new BankClient(
      { clientId: credentials.clientId, clientSecret: 'wrong', baseUrl: sandbox.url, timeoutMs: 5_000 },
      logger,
    );
    await expect(stranger.cancelBoleto(boletoIds[0] ?? '')).rejects.toBeInstanceOf(BankUnauthorizedError);
    expect((await injected()).errors).toBe(0);
    expect((await sandboxControl(sandbox.url).get('/sandbox/world')).status).toBe(200);
  });

  it('refuses fault settings out of range, naming each member', async () => {
    const response = await sandboxControl(sandbox.url).put<{ errors: { source: { pointer: string } }[] }>(
      '/sandbox/faults',
      { error_rate: 1.5, webhook_drop_rate: -0.1, surprise: true },
    );
    expect(response.status).toBe(422);
    expect(response.body.errors.map((error) => error.source.pointer).sort()).toEqual([
      '/',
      '/error_rate',
      '/webhook_drop_rate',
    ]);
  });
});
