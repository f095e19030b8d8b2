import { AttemptTable } from '../../src/workflows/recurrence/attempt-table.js';
import { noArchivedAttempts, type RecurrenceAttempt } from '../../src/contract/recurrence.js';

function attempt(id: string, status: string, timestamp: string): RecurrenceAttempt {
  return {
    id,
    collectionId: `collection-${id}`,
    status,
    timestamp,
    type: 'scheduled',
    dueDate: '2030-01-01T00:00:00.000Z',
    endToEndId: null,
    transactionDate: null,
    sources: [],
  };
}

describe('AttemptTable', () => {
  it('orders reports of one attempt by status first, then by time, telling a new status from a later time', () => {
    let table = new AttemptTable([], noArchivedAttempts(), 10);
    expect(
      table.applyAll(
        [
          attempt('a', 'created', '2030-01-01T10:00:00Z'),
          attempt('a', 'processing', '2030-01-01T09:00:00Z'),
          attempt('a', 'settled', '2030-01-01T08:00:00Z'),
          attempt('a', 'created', '2030-01-02T00:00:00Z'),
          attempt('a', 'failed', '2030-01-01T08:00:00Z'),
          attempt('a', 'settled', '2030-01-01T08:00:00Z'),
        ],
        'webhook',
      ),
    ).toEqual(['moved', 'moved', 'moved', 'stale', 'stale', 'duplicate']);
    expect(table.applyAll([attempt('b', 'created', '2030-01-01T10:00:00Z')], 'sync')).toEqual(['moved']);
    // The same status at a later time is taken, but the attempt did not move: nothing new to tell the
    // merchant.
    expect(table.applyAll([attempt('b', 'created', '2030-01-01T11:00:00Z')], 'sync')).toEqual(['applied']);
    table = new AttemptTable([], noArchivedAttempts(), 10);
    table.applyAll([attempt('a', 'settled', '2030-01-01T08:00:00Z')], 'webhook');
    expect(table.list()).toEqual([
      { ...attempt('a', 'settled', '2030-01-01T08:00:00Z'), sources: ['webhook'] },
    ]);
  });

  it('counts a report once whichever path brings it, remembering both paths', () => {
    const table = new AttemptTable([], noArchivedAttempts(), 10);
    const report = attempt('a', 'created', '2030-01-01T10:00:00Z');
    expect(table.applyAll([report], 'sync')).toEqual(['moved']);
    expect(table.applyAll([report, report], 'webhook')).toEqual(['duplicate', 'duplicate']);
    expect(table.list()[0]!.sources).toEqual(['sync', 'webhook']);
    expect(table.size).toBe(1);
  });

  it('archives the oldest final attempts beyond the limit, never a pending one', () => {
    const table = new AttemptTable([], noArchivedAttempts(), 2);
    table.applyAll(
      [
        attempt('pending', 'created', '2030-01-01T00:00:00Z'),
        attempt('old', 'failed', '2030-01-02T00:00:00Z'),
        attempt('mid', 'settled', '2030-01-03T00:00:00Z'),
        attempt('new', 'settled', '2030-01-04T00:00:00Z'),
      ],
      'sync',
    );
    expect(table.list().map((a) => a.id)).toEqual(['new', 'pending']);
    expect(table.archived).toEqual({
      count: 2,
      byStatus: { failed: 1, settled: 1 },
      through: '2030-01-03T00:00:00Z',
    });
    expect(table.countByStatus()).toEqual({ created: 1, failed: 1, settled: 2 });
    expect(table.applyAll([attempt('mid', 'settled', '2030-01-03T00:00:00Z')], 'webhook')).toEqual([
      'duplicate',
    ]);
    expect(table.applyAll([attempt('pending', 'settled', '2030-01-05T00:00:00Z')], 'webhook')).toEqual([
      'moved',
    ]);
    expect(table.countByStatus()).toEqual({ failed: 1, settled: 3 });
  });

  it('answers the newest attempt as the first listed, a tie in time going to the greater id', () => {
    const table = new AttemptTable([], noArchivedAttempts(), 10);
    expect(table.latest()).toBeUndefined();
    table.applyAll(
      [
        attempt('b', 'created', '2030-01-02T00:00:00Z'),
        attempt('c', 'settled', '2030-01-02T00:00:00.000+00:00'),
        attempt('a', 'settled', '2030-01-01T23:00:00-03:00'),
      ],
      'sync',
    );
    expect(table.list().map((a) => a.id)).toEqual(['a', 'c', 'b']);
    expect(table.latest()).toEqual(table.list()[0]);
  });

  it('takes the archive watermark a previous run carried, and moves it only forward', () => {
    const carried = { count: 3, byStatus: { settled: 3 }, through: '2030-01-10T00:00:00Z' };
    const table = new AttemptTable([attempt('kept', 'settled', '2030-01-11T00:00:00Z')], carried, 2);
    expect(
      table.applyAll(
        [
          attempt('archived', 'settled', '2030-01-09T21:00:00-03:00'),
          attempt('late-pending', 'created', '2030-01-01T00:00:00Z'),
        ],
        'sync',
      ),
    ).toEqual(['duplicate', 'moved']);
    table.applyAll([attempt('newer', 'failed', '2030-01-12T00:00:00Z')], 'sync');
    expect(table.list().map((a) => a.id)).toEqual(['newer', 'late-pending']);
    expect(table.archived).toEqual({
      count: 4,
      byStatus: { settled: 4 },
      through: '2030-01-11T00:00:00Z',
    });
    expect(table.applyAll([attempt('older', 'failed', '2030-01-10T12:00:00Z')], 'webhook')).toEqual([
      'duplicate',
    ]);
  });
});
