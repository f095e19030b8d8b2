import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createNotificationActivities } from '../../src/activities/notifications.js';
import type { NotificationEvent } from '../../src/contract/notifications.js';
import { answerBytesRead, keptAnswerChars } from '../../src/notifications/answers.js';
import { merchantSecret } from '../helpers/merchant-notifications.js';

/** What the hostile endpoint answers: 50 MB, streamed as fast as the worker reads it. */
const bodyBytes = 50 * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, 'y');

interface Answered {
  /** The bytes the endpoint wrote before the worker closed the connection (the kernel's buffers included). */
  written: number;
  /** Whether the endpoint wrote the whole body: false when the worker closed the connection before. */
  finished: boolean;
}

/** An endpoint answering every POST `status` with a 50 MB body, and what it managed to send. */
async function hostileEndpoint(status: number): Promise<{ url: string; answered: Promise<Answered> }> {
  let settle: (answered: Answered) => void = () => undefined;
  const answered = new Promise<Answered>((resolve) => (settle = resolve));
  const server: Server = createServer((request, response) => {
    request.resume();
    let written = 0;
    response.writeHead(status, { 'content-type': 'text/plain' });
    const pump = () => {
      while (written < bodyBytes && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.once('close', () => {
      settle({ written, finished: response.writableFinished });
      server.closeAllConnections();
      server.close();
    });
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, answered };
}

const event: NotificationEvent = {
  id: 'payment:p-1:1',
  type: 'payment.created',
  resource: { type: 'payment', id: 'p-1' },
  sequence: 1,
  occurred_at: '2026-11-27T23:42:10.512Z',
  data: { id: 'p-1', status: 'created' },
};

/** One delivery attempt of `event` to `endpoint`, as the outbox runs it; its failure, or its answer. */
async function deliver(endpoint: string): Promise<unknown> {
  const activities = createNotificationActivities({} as Client, 'internal', {
    endpoints: [endpoint],
    secrets: [merchantSecret],
  });
  try {
    // Its log lines (the answer, the failed attempt) say what the assertions below check.
    const quiet = { logger: new DefaultLogger('ERROR') };
    return await new MockActivityEnvironment({ attempt: 2 }, quiet).run(
      activities.deliverNotification,
      endpoint,
      event,
    );
  } catch (error) {
    return error;
  }
}

describe('a notification endpoint answering a huge body', () => {
  it('costs a failed delivery the first 4 KiB: the endpoint never gets to send its 50 MB', async () => {
    const endpoint = await hostileEndpoint(500);
    const failure = await deliver(endpoint.url);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: 'NotificationRefused',
      message: `HTTP 500: ${'y'.repeat(keptAnswerChars)}`,
    });
    const answered = await endpoint.answered;
    expect(answered.finished).toBe(false);
    // What the endpoint wrote is what the worker read (4 KiB and one network read) and what the sockets of
    // both ends buffered: a few MB at most on the loopback, not the body.
    expect(answered.written).toBeGreaterThan(answerBytesRead);
    expect(answered.written).toBeLessThan(bodyBytes / 5);
  });

  it('reads nothing of a 2xx body, and of a final 4xx only the first 4 KiB', async () => {
    const accepted = await hostileEndpoint(200);
    expect(await deliver(accepted.url)).toEqual({ status: 200, attempt: 2 });
    expect(await accepted.answered).toMatchObject({ finished: false });
    expect((await accepted.answered).written).toBeLessThan(bodyBytes / 5);

    const rejected = await hostileEndpoint(422);
    expect(await deliver(rejected.url)).toMatchObject({ type: 'NotificationRejected', nonRetryable: true });
    expect(await rejected.answered).toMatchObject({ finished: false });
    expect((await rejected.answered).written).toBeLessThan(bodyBytes / 5);
  });
});
