import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createNotificationActivities } from '../../src/activities/notifications.js';
import { temporal } from '@temporalio/proto';
import type { NotificationEvent, NotificationType } from '../../src/contract/notifications.js';
import { workflowIds } from '../../src/contract/ids.js';
import { readNotificationLog } from '../../src/notifications/log.js';
import { runAttemptsSync } from '../../src/starter/index.js';
import { defaultShutdownGraceSeconds } from '../../src/temporal/worker-defaults.js';
import { workerProcessEnv } from '../helpers/cli-env.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { control, eventually } from '../helpers/journey.js';
import { merchantSecret, verifiedEvent } from '../helpers/merchant-notifications.js';
import { attemptsIn, recordAttemptsListRequests } from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { workerProcesses } from '../helpers/worker-processes.js';

/** The merchant's timings shortened this much, as NOTIFY_TEST_SPEEDUP does: a POST times out after 4 s. */
const speedup = 5;
/** How long the merchant's endpoint holds each POST before it answers 200: a slow endpoint, under the 4 s. */
const answerAfterMs = 2_500;

/**
 * One POST the endpoint took: its event id, and whether its 200 went out whole before the connection closed.
 */
interface Post {
  eventId: string;
  answered: boolean;
}

/**
 * A merchant endpoint that answers every POST 200, `answerAfterMs` after it came, and tells when one comes.
 */
async function startSlowEndpoint() {
  const posts: Post[] = [];
  const waiting: { eventId: string; arrived: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const eventId = verifiedEvent({
        method: request.method ?? '',
        headers: request.headers,
        raw: Buffer.concat(chunks),
        at: performance.now(),
      }).id;
      const post: Post = { eventId, answered: false };
      posts.push(post);
      response.on('finish', () => (post.answered = true));
      const answer = setTimeout(() => response.writeHead(200).end(), answerAfterMs);
      response.on('close', () => clearTimeout(answer));
      for (const waiter of waiting.filter((entry) => entry.eventId === eventId)) waiter.arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`,
    posts,
    /** Resolves when a POST of `eventId` arrives. */
    arrivalOf: (eventId: string) =>
      new Promise<void>((arrived) => {
        waiting.push({ eventId, arrived });
      }),
    postsOf: (eventId: string) => posts.filter((post) => post.eventId === eventId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const EventType = temporal.api.enums.v1.EventType;

/**
 * A deploy stops a worker with SIGTERM. A `bankflow worker` process stopped while a merchant notification's
 * POST is in flight must let the POST finish: cut, the merchant may have taken it, and the retry sends it
 * again. An activity that pages the bank finishes the page on its way and asks for no other.
 */
describe('a worker stopped with SIGTERM', () => {
  const tempDir = tempDirs('bankflow-worker-shutdown-');
  let stack: TestStack;
  let logDir: string;
  let endpoint: Awaited<ReturnType<typeof startSlowEndpoint>>;
  const workers = workerProcesses(() => path.join(logDir, 'workers.log'));
  const startWorker = (name: string) =>
    workers.start(
      workerProcessEnv(stack, {
        BANKFLOW_DATA_DIR: path.join(logDir, name),
        // One report store for every worker, as in production: an attempts sync's deliveries are read back
        // there.
        REPORTS_DIR: path.join(logDir, 'reports'),
        NOTIFY_ENDPOINTS: endpoint.url,
        NOTIFY_SECRET: merchantSecret,
        NOTIFY_TEST_SPEEDUP: String(speedup),
      }),
    );

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
    await stack.stopWorker();
    logDir = tempDir();
    endpoint = await startSlowEndpoint();
  });
  afterAll(async () => {
    await workers.stopAll();
    await stack?.stop();
    await endpoint?.close();
  });

  it('finishes the notification POST in flight, records it delivered, and the next worker does not send it again', async () => {
    expect(defaultShutdownGraceSeconds * 1000).toBeGreaterThan(answerAfterMs);
    const resource = { type: 'payment' as const, id: randomUUID() };
    const event = (sequence: number, type: NotificationType): NotificationEvent => ({
      id: `payment:${resource.id}:${sequence}`,
      type,
      resource,
      sequence,
      occurred_at: new Date().toISOString(),
      data: { id: resource.id, status: type.slice('payment.'.length) },
    });
    const [created, authorized] = [event(1, 'payment.created'), event(2, 'payment.authorized')];
    const handing = createNotificationActivities(stack.client, stack.taskQueue, {
      endpoints: [endpoint.url],
      secrets: [merchantSecret],
      speedup,
    });

    const first = await startWorker('first');
    const inFlight = endpoint.arrivalOf(created.id);
    await handing.handOffNotification(created);
    await inFlight;
    first.child.kill('SIGTERM');
    await first.exited;
    expect(first.child.exitCode).toBe(0);
    // The POST went on after the signal and was answered; the worker exited after it.
    expect(endpoint.postsOf(created.id)).toEqual([{ eventId: created.id, answered: true }]);

    // The next worker takes the outbox over: the first event is recorded delivered at its only attempt, and
    // the next one goes out after it, with no second POST of the first in between.
    await startWorker('second');
    const next = endpoint.arrivalOf(authorized.id);
    await handing.handOffNotification(authorized);
    await next;
    expect(endpoint.postsOf(created.id)).toHaveLength(1);
    expect(endpoint.posts.map((post) => post.eventId)).toEqual([created.id, authorized.id]);
    const log = await eventually(
      () => readNotificationLog(stack.client, resource),
      (read) =>
        read.deliveries.every((entry) => entry.status === 'delivered') && read.deliveries.length === 2,
    );
    expect(log.deliveries.find((entry) => entry.eventId === created.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      answer: 'HTTP 200',
    });
  }, 240_000);

  it('ends an attempts sync page activity after the page in flight, and the sync goes on from there on the next worker', async () => {
    // Every seeded attempt, 6 pages of 50; each page takes 800 ms, so the activity is mid-delivery when
    // stopped.
    const window = { from: '2025-03-20T00:00:00.000Z', to: '2025-06-15T10:00:00.000Z' };
    const inWindow = attemptsIn(stack.sandbox, window.from, window.to);
    const pageCount = Math.ceil(inWindow.length / 50);
    expect(pageCount).toBeGreaterThan(4);
    const requests = recordAttemptsListRequests(stack.sandbox);
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 800 });
    try {
      const first = await startWorker('third');
      const result = runAttemptsSync(stack, window);
      await eventually(
        async () => requests.length,
        (answered) => answered >= 2,
      );
      first.child.kill('SIGTERM');
      await first.exited;
      expect(first.child.exitCode).toBe(0);
      // The page on its way when the signal came was the worker's last: it asked for none after it.
      const fetchedByFirst = requests.length;
      expect(fetchedByFirst).toBeLessThan(pageCount);

      await startWorker('fourth');
      const summary = await result;
      expect(summary).toMatchObject({ attempts: inWindow.length, pages: pageCount });
      // Each page fetched once: the first worker's activity completed with its pages, none was asked again.
      expect(requests.map((request) => request.status)).toEqual(Array(pageCount).fill(200));
      expect(new Set(requests.map((request) => request.after)).size).toBe(pageCount);
      const history = await stack.client.workflow
        .getHandle(workflowIds.attemptsSync(window.from, window.to))
        .fetchHistory();
      const ended = (history.events ?? []).flatMap((event) =>
        [
          EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
          EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
          EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
          EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
        ].includes(event.eventType ?? 0)
          ? [EventType[event.eventType ?? 0]]
          : [],
      );
      expect(new Set(ended)).toEqual(new Set(['EVENT_TYPE_ACTIVITY_TASK_COMPLETED']));
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  }, 240_000);
});
