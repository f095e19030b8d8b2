import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recordDelivery, summarizeDeliveries } from '../../src/activities/attempts-recurrences.js';
import { deliveryKey } from '../../src/contract/attempts-sync.js';
import { directorySink } from '../../src/reports/sink/directory-sink.js';

describe("the attempts sync's delivery records", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'bankflow-deliveries-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('counts each recurrence once, removes the deliveries, and answers a retry with the same summary', async () => {
    const sink = directorySink(root);
    const prefix = 'attempts-sync/run-1/window';
    const unknown = (externalId: string, attempts: number) => ({
      externalId,
      recurrenceId: `rec-${externalId}`,
      workflow: 'missing' as const,
      attempts,
      attemptIds: [`${externalId}-a${attempts}`],
    });
    const delivery = (updated: string[], unknowns: ReturnType<typeof unknown>[]) => ({
      pages: 1,
      attempts: updated.length + unknowns.length,
      signals: updated.length,
      byStatus: {},
      updated,
      unknown: unknowns,
    });
    await recordDelivery(sink, { prefix, key: deliveryKey(1) }, delivery(['r1', 'r2'], [unknown('u1', 1)]));
    await recordDelivery(sink, { prefix, key: deliveryKey(2) }, delivery(['r2', 'r3'], [unknown('u1', 1)]));

    const summary = await summarizeDeliveries(sink, prefix);
    expect(summary).toMatchObject({ recurrencesUpdated: 3, unknownRecurrenceCount: 1 });
    expect(summary.unknownRecurrences).toEqual([expect.objectContaining({ externalId: 'u1', attempts: 2 })]);
    expect(await sink.list(`${prefix}/deliveries/`)).toEqual([]);
    expect(await sink.get(`${prefix}/unknown-recurrences.jsonl`)).toContain('"externalId":"u1"');
    expect(await summarizeDeliveries(sink, prefix)).toEqual(summary);
  });
});
