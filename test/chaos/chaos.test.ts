import { runChaos } from '../../bench/chaos/harness.js';
import { formatReport } from '../../bench/chaos/report.js';

/**
 * The chaos run of `npm run chaos` at a size the test command can afford. It starts its own Temporal dev
 * server (it restarts it), its own sandbox bank, receiver and `bankflow worker` processes.
 */
describe('chaos: journeys and a recurrence sync while the bank (its credentials and its schema too), webhooks, workers, Temporal and the receiver fail, and a hostile actor sends forged payloads', () => {
  it('loses no payment, pays nothing twice, accounts for every delivered webhook, notifies every outcome and strands no workflow', async () => {
    const report = await runChaos({ journeys: 20, seed: 7 });
    // On failure the whole table shows: the violations and what the run injected.
    expect(report.violations.length === 0 ? 'no violations' : formatReport(report)).toBe('no violations');
    expect(report.journeys).toMatchObject({ total: 20, unfinished: 0 });
    expect(report.outcomes.webhooks.delivered).toBeGreaterThan(0);
    expect(report.faults).toMatchObject({ temporalRestarts: 1, receiverRestarts: 1 });
    expect(report.faults.workerKills).toBeGreaterThan(0);
    expect(report.faults.bankErrors).toBeGreaterThan(0);
    expect(report.faults.webhooksDropped + report.faults.webhooksDuplicated).toBeGreaterThan(0);
    // The bank's reads lag its webhooks and some webhooks name another resource, yet no workflow ends on
    // them.
    expect(report.faults.getLagMs).toBeGreaterThan(0);
    expect(report.faults.webhooksForeignIds).toBeGreaterThan(0);
    expect(report.outcomes.sync?.unknownAttempts).toBe(0);
    // The bank rotated its credentials (every call 401 a while) and its schema drifted (the journeys' reads
    // in unknown statuses and members a while): no read ended a journey, no unknown status became an outcome.
    expect(report.faults.credentialRotation.refused).toBeGreaterThan(0);
    expect(report.faults.schemaDrift.altered).toBeGreaterThan(0);
    // The hostile actor reached live journeys with each of its sends, and the workflows dropped its signals.
    const { hostile } = report.faults;
    expect(
      Math.min(
        hostile.undecodableSignals,
        hostile.undecodableUpdates,
        hostile.plaintextSignals,
        hostile.forgedWebhooks,
      ),
    ).toBeGreaterThan(0);
    expect(report.outcomes.refusedSignals).toBeGreaterThan(0);
    // The merchant's endpoint was down a while, answered 500s and too slowly, and still got every final
    // outcome.
    const { notifications } = report;
    expect(notifications.owed).toBeGreaterThan(0);
    expect(notifications.downMs).toBeGreaterThan(0);
    expect(notifications.errors).toBeGreaterThan(0);
    expect(notifications.tooSlow + notifications.duplicates).toBeGreaterThan(0);
  }, 600_000);
});
