import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandomFor, type SeededRandom } from '../../devkit/sandbox/seed/random.js';
import { notificationHeaders, notificationTimings } from '../../src/contract/notifications.js';
import { checkSignature } from '../../src/notifications/signature.js';

/** The merchant's secret the chaos workers sign with (NOTIFY_SECRET). */
export const chaosNotifySecret = 'chaos-merchant-notifications-secret';
/**
 * NOTIFY_TEST_SPEEDUP of the chaos workers: the first retry 3 s after a failure, each POST given 2 s. The
 * three-day window is the merchant's.
 */
export const chaosNotifySpeedup = 10;
const requestTimeoutMs = notificationTimings.requestTimeoutMs / chaosNotifySpeedup;

/** How the merchant's endpoint misbehaves, drawn from the run's seed. */
export const endpointFaults = {
  errorRate: 0.15,
  /** Answers slower than bankflow waits: the POST is aborted, retried, and the merchant gets it twice. */
  tooSlowRate: 0.08,
  slowRate: 0.1,
  /** Signatures are checked against the receiving moment with the merchant documentation's tolerance. */
  toleranceSec: 300,
};

/** One request the endpoint received, as it arrived, and what it answered. */
export interface ReceivedNotification {
  at: number;
  eventId: string;
  eventType: string;
  signature: string | undefined;
  body: string;
  /** Whether the signature verified under the chaos secret at `at`, or why not. */
  signatureProblem?: string;
  answer: 'ok' | 'error' | 'too-slow' | 'slow';
}

export interface EndpointCounts {
  requests: number;
  /** Requests for an event id received before (retries after a lost answer, and resends). */
  duplicates: number;
  errors: number;
  tooSlow: number;
  slow: number;
  /**
   * 200s for an event id answered 200 before (the first too late for bankflow, or a retry after a lost
   * answer).
   */
  answeredAgain: number;
}

/**
 * The merchant's notification endpoint, as a fallible merchant runs it: down (not listening) for a seeded
 * window, some answers 500, some slow, some slower than bankflow waits (so the event comes again, and the
 * merchant answers 200 to both copies). It records every request with its raw body and checks each signature.
 */
export class ChaosMerchantEndpoint {
  readonly received: ReceivedNotification[] = [];
  readonly counts: EndpointCounts = {
    requests: 0,
    duplicates: 0,
    errors: 0,
    tooSlow: 0,
    slow: 0,
    answeredAgain: 0,
  };
  /** When the endpoint was not listening: attempts then were refused at the TCP level. */
  down: { from: number; to: number } | undefined;
  private server: Server | undefined;
  private readonly random: SeededRandom;
  private readonly seen = new Set<string>();
  private readonly answered = new Set<string>();
  private downWindow: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();
  private triggerDown: () => void = () => undefined;
  private readonly downTriggered = new Promise<void>((resolve) => (this.triggerDown = resolve));
  private downAfterRequests = Infinity;
  private recovered = false;

  private constructor(
    readonly port: number,
    seed: number,
  ) {
    this.random = seededRandomFor(seed, 'chaos-merchant-endpoint');
  }

  static async start(port: number, seed: number): Promise<ChaosMerchantEndpoint> {
    const endpoint = new ChaosMerchantEndpoint(port, seed);
    await endpoint.listen();
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/bankflow/notifications`;
  }

  /**
   * The seeded down window: once `afterRequests` requests came, the endpoint stops listening for `downMs`,
   * then listens again and stays up.
   */
  scheduleDownWindow(afterRequests: number, downMs: number, log: (line: string) => void): void {
    const signal = this.stopping.signal;
    this.downWindow = (async () => {
      await this.downTriggered;
      if (signal.aborted) return;
      log(`merchant endpoint: down for ${downMs} ms after ${afterRequests} requests`);
      await this.close();
      const downSince = Date.now();
      await sleep(downMs, undefined, { signal }).catch(() => undefined);
      await this.listen();
      this.down = { from: downSince, to: Date.now() };
      log(`merchant endpoint: back`);
    })().catch(() => undefined);
    this.downAfterRequests = afterRequests;
  }

  /** Resolves once the down window ended and the endpoint listens again (it stays up from then on). */
  async up(): Promise<void> {
    await this.downWindow;
  }

  /**
   * From now on every request is answered 200 at once: the merchant fixed its backend. What the outboxes
   * still owe arrives at their next retry, which comes at most the retry policy's longest interval later.
   */
  async recover(): Promise<void> {
    await this.up();
    this.recovered = true;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.triggerDown();
    await this.downWindow;
    await this.close();
  }

  private listen(): Promise<void> {
    // A request cut off by the down window (its connection destroyed) is simply lost, as at a real merchant.
    const server = createServer((request, response) => {
      this.handle(request, response).catch(() => response.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  private close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const at = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = request.headers[notificationHeaders.signature] as string | undefined;
    const eventId = String(request.headers[notificationHeaders.eventId] ?? '');
    const check = checkSignature(
      body,
      signature,
      [chaosNotifySecret],
      endpointFaults.toleranceSec,
      at / 1000,
    );
    const draw = this.recovered ? 1 : this.random.next();
    const answer: ReceivedNotification['answer'] =
      draw < endpointFaults.errorRate
        ? 'error'
        : draw < endpointFaults.errorRate + endpointFaults.tooSlowRate
          ? 'too-slow'
          : draw < endpointFaults.errorRate + endpointFaults.tooSlowRate + endpointFaults.slowRate
            ? 'slow'
            : 'ok';
    this.received.push({
      at,
      eventId,
      eventType: String(request.headers[notificationHeaders.eventType] ?? ''),
      signature,
      body,
      ...(check.ok ? {} : { signatureProblem: check.reason }),
      answer,
    });
    this.counts.requests++;
    if (this.counts.requests >= this.downAfterRequests) this.triggerDown();
    if (this.seen.has(eventId)) this.counts.duplicates++;
    this.seen.add(eventId);
    if (answer === 'error') {
      this.counts.errors++;
      response.writeHead(500, { 'content-type': 'text/plain' }).end('merchant backend unavailable');
      return;
    }
    if (answer === 'too-slow') {
      this.counts.tooSlow++;
      await sleep(requestTimeoutMs + this.random.int(500, 1_500));
    } else if (answer === 'slow') {
      this.counts.slow++;
      await sleep(this.random.int(100, requestTimeoutMs / 2));
    }
    // A copy seen before is stored already; the merchant answers 200 again, as the documentation asks.
    if (this.answered.has(eventId)) this.counts.answeredAgain++;
    this.answered.add(eventId);
    if (!response.destroyed) response.writeHead(200).end();
  }
}
