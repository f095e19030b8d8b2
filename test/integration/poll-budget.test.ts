import { temporal } from '@temporalio/proto';
import { tsToMs } from '@temporalio/common/lib/time.js';
import { bankQueueRates } from '../../src/config/bank.js';
import { pollStretchFactor } from '../../src/contract/journeys.js';
import { startOpenPayments } from '../../bench/open-payments.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const EventType = temporal.api.enums.v1.EventType;

/** The fleet's bank budget and the part of it the polls get. */
const bank = { requestsPerSecond: 20, pollReadsPerSecond: 8 };
const { polls: pollBudget = 0 } = bankQueueRates(bank);
/** Far more than the budget serves at the plan: 200 payments every 2 s want 100 reads a second. */
const payments = 200;
const polling = { firstPollAfterMs: 2_000, maxPollIntervalMs: 2_000, stretchCeilingMs: 60_000 };

/** How long the first round may take on a loaded machine: several times the 25 s it takes at the budget. */
const firstRoundWithinMs = 150_000;

interface PaymentPolls {
  /** When each of its reads started at the bank (activity started, workflow time of the server). */
  reads: number[];
  /** The waits its poll timers were started with. */
  waits: number[];
}

async function pollsOf(stack: TestStack, workflowId: string): Promise<PaymentPolls> {
  const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const reads: number[] = [];
  const waits: number[] = [];
  for (const event of events) {
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) reads.push(tsToMs(event.eventTime));
    const timer = event.timerStartedEventAttributes;
    if (timer) waits.push(tsToMs(timer.startToFireTimeout));
  }
  return { reads, waits };
}

describe('polling within the poll budget', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ bank });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('never reads the bank faster than the budget (and its burst), reads every payment and stretches the waits', async () => {
    const ids = await startOpenPayments(stack.client, stack.taskQueue, {
      count: payments,
      processingSince: new Date(),
      polling,
    });
    // The first round alone takes payments / budget = 25 s; a little more lets the stretched waits show. A
    // loaded machine answers later, so the wait is for every payment's first read, then for those 35 s at
    // least (a read shows in the history once it is answered).
    const startedAt = Date.now();
    let unread = ids;
    while (unread.length > 0 && Date.now() - startedAt < firstRoundWithinMs) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const polled = await Promise.all(unread.map(async (id) => ({ id, polls: await pollsOf(stack, id) })));
      unread = polled.filter(({ polls }) => polls.reads.length === 0).map(({ id }) => id);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(startedAt + 35_000 - Date.now(), 0)));
    const all = await Promise.all(ids.map((id) => pollsOf(stack, id)));
    await Promise.all(ids.map((id) => stack.client.workflow.getHandle(id).terminate('test over')));

    // Every payment was read.
    expect(all.filter((payment) => payment.reads.length === 0)).toEqual([]);
    // No second saw more reads than the budget and the one second of burst Temporal's limiter allows.
    const perSecond = new Map<number, number>();
    for (const read of all.flatMap((payment) => payment.reads)) {
      const second = Math.floor(read / 1_000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(2 * pollBudget);
    // A payment whose poll waited for the budget waits longer than planned before the next, up to the
    // ceiling.
    const waits = all.flatMap((payment) => payment.waits);
    const stretched = waits.filter((wait) => wait > polling.firstPollAfterMs);
    expect(stretched.length).toBeGreaterThan(payments / 2);
    expect(Math.max(...waits)).toBeLessThanOrEqual(polling.stretchCeilingMs);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(pollStretchFactor * 1_000);
  }, 300_000);
});
