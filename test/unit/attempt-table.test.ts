import {
  AttemptTable,
  noArchivedAttempts,
  type RecurrenceAttempt,
} from '../../src/workflows/recurrence/attempt-table.js';

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
  it('orders reports of one attempt by status first, then by time', () => {
    const table = new AttemptTable([], noArchivedAttempts(), 10);
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
    ).toEqual(['applied', 'applied', 'applied', 'stale', 'stale', 'duplicate']);
    expect(table.list()).toEqual([
      { ...attempt('a', 'settled', '2030-01-01T08:00:00Z'), sources: ['webhook'] },
    ]);
  });

  it('counts a report once whichever path brings it, remembering both paths', () => {
    const table = new AttemptTable([], noArchivedAttempts(), 10);
    const report = attempt('a', 'created', '2030-01-01T10:00:00Z');
    expect(table.applyAll([report], 'sync')).toEqual(['applied']);
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
      'applied',
    ]);
    expect(table.countByStatus()).toEqual({ failed: 1, settled: 3 });
  });
});
