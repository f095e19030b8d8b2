import { Client, Connection } from '@temporalio/client';
import {
  AttemptsDeliveryBatch,
  attemptsPerSignal,
  signalsInFlight,
} from '../../src/activities/attempts-delivery.js';
import { getRecurrence, startRecurrence } from '../../src/starter/index.js';
import type { SyncedAttempt } from '../../src/contract/attempts-sync.js';
import { eventually } from '../helpers/journey.js';
import { recurrenceRequest } from '../helpers/recurrences.js';
import { required, startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

/** `count` settled attempts of one recurrence, a minute apart from `start`. */
function attemptsOf(externalId: string, recurrenceId: string, count: number, start: string): SyncedAttempt[] {
  return Array.from({ length: count }, (_, index) => {
    const timestamp = new Date(Date.parse(start) + index * 60_000).toISOString();
    return {
      externalId,
      recurrenceId,
      attempt: {
        id: `${externalId}-attempt-${index}`,
        collectionId: `${externalId}-collection-${index}`,
        status: 'settled',
        timestamp,
        type: 'scheduled',
        dueDate: timestamp.slice(0, 10),
        endToEndId: null,
        transactionDate: timestamp,
        sources: [],
      },
    };
  });
}

/** Pages of 50, alternating between the given recurrences' attempts, as the bank lists them by time. */
function interleavedPages(...groups: SyncedAttempt[][]): SyncedAttempt[][] {
  const pages: SyncedAttempt[][] = [];
  const longest = Math.max(...groups.map((group) => group.length));
  for (let start = 0; start < longest; start += 25) {
    pages.push(groups.flatMap((group) => group.slice(start, start + 25)));
  }
  return pages;
}

describe('AttemptsDeliveryBatch against a real Temporal server', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());

  it('signals a recurrence each full signal while pages still come, the rest at the end, and lists the attempts of one with no workflow', async () => {
    const { recurrence } = await startRecurrence(stack, recurrenceRequest(stack));
    const known = attemptsOf(recurrence.external_id, recurrence.id, 2_500, '2036-01-01T00:00:00.000Z');
    const missing = attemptsOf(
      `missing-${Date.now()}`,
      'recurrence-of-nobody',
      1_200,
      '2036-01-01T00:00:00.000Z',
    );
    const delivery = new AttemptsDeliveryBatch(stack.client);
    const pages = interleavedPages(known, missing);

    for (const page of pages.slice(0, 50)) delivery.add(page);
    // 1,250 of the known recurrence's attempts taken: the first 1,000 reach it before the batch finishes.
    await eventually(
      () => getRecurrence(stack, { externalId: recurrence.external_id }),
      (state) => state.updates.fromSync === attemptsPerSignal,
      30_000,
    );
    for (const page of pages.slice(50)) delivery.add(page);
    const result = await delivery.finish(pages.length);

    expect(result).toEqual({
      pages: pages.length,
      attempts: 3_700,
      byStatus: { settled: 3_700 },
      signals: 3,
      updated: [recurrence.external_id],
      unknown: [
        {
          externalId: missing[0]!.externalId,
          recurrenceId: 'recurrence-of-nobody',
          workflow: 'missing',
          attempts: 1_200,
          attemptIds: missing.map((synced) => synced.attempt.id),
        },
      ],
    });
    const state = await eventually(
      () => getRecurrence(stack, { externalId: recurrence.external_id }),
      (s) => s.updates.fromSync === 2_500,
      30_000,
    );
    expect(state.updates).toMatchObject({ applied: 2_500, duplicates: 0, stale: 0 });
    expect(state.attemptsByStatus).toEqual({ settled: 2_500 });
  }, 90_000);

  it('fails the batch when a signal fails, and stops signalling for it', async () => {
    const connection = await Connection.connect({ address: required(testEnvKeys.address) });
    const client = new Client({ connection, namespace: required(testEnvKeys.namespace) });
    const { recurrence } = await startRecurrence(stack, recurrenceRequest(stack));
    const delivery = new AttemptsDeliveryBatch(client);
    await connection.close();

    delivery.add(
      attemptsOf(recurrence.external_id, recurrence.id, attemptsPerSignal, '2036-02-01T00:00:00.000Z'),
    );
    await expect(delivery.finish(20)).rejects.toThrow();
    expect(delivery.failed).toBe(true);
    const state = await getRecurrence(stack, { externalId: recurrence.external_id });
    expect(state.updates.fromSync).toBe(0);
  }, 60_000);

  it('reports progress after every call to Temporal, so the activity delivering it keeps heartbeating', async () => {
    const recurrences = 300;
    let progress = 0;
    const delivery = new AttemptsDeliveryBatch(stack.client, { progress: () => progress++ });
    const runId = Date.now();
    for (let index = 0; index < recurrences; index++) {
      delivery.add(
        attemptsOf(`unfollowed-${runId}-${index}`, `recurrence-${index}`, 1, '2036-03-01T00:00:00.000Z'),
      );
    }
    const result = await delivery.finish(3);
    expect(result.unknown).toHaveLength(recurrences);
    expect(progress).toBe(recurrences);
  }, 60_000);

  it('starts no call once cancelled (a retry of its activity may be delivering the same pages), and fails', async () => {
    const recurrences = 1_000;
    const cancelled = new AbortController();
    let progress = 0;
    const delivery = new AttemptsDeliveryBatch(stack.client, {
      progress: () => {
        progress++;
        if (progress === 10) cancelled.abort(new Error('activity timed out'));
      },
      cancelled: cancelled.signal,
    });
    const runId = Date.now();
    for (let index = 0; index < recurrences; index++) {
      delivery.add(
        attemptsOf(`unfollowed-${runId}-${index}`, `recurrence-${index}`, 1, '2036-03-01T00:00:00.000Z'),
      );
    }
    await expect(delivery.finish(10)).rejects.toThrow('activity timed out');
    // Only the calls already under way when it was cancelled finish.
    expect(progress).toBeLessThan(10 + signalsInFlight);
  }, 60_000);
});
