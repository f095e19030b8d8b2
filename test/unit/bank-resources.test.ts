import { bankCallOptions } from '../../src/workflows/activity-options.js';
import type { IncomingMessage } from 'node:http';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createBankCallActivities } from '../../src/activities/bank-calls.js';
import { bankActivityNames } from '../../src/activities/failures.js';
import { createActivities } from '../../src/activities/index.js';
import { BankClient } from '../../src/bank/client.js';
import { BankError } from '../../src/bank/errors.js';
import { PageCursorConflictError } from '../../src/bank/pagination.js';
import { bankEndpoints } from '../../src/bank/resources/index.js';
import { createLogger } from '../../src/logger.js';
import { startTracing, type Tracing } from '../../src/tracing/setup.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';

/**
 * The activities the worker registered before endpoints were declared in resources; workflows call them by
 * name.
 */
const bankCallActivityNames = [
  'authorizeBiometricPayment',
  'cancelBoleto',
  'createBiometricPayment',
  'createEnrollment',
  'generateRecurrence',
  'getBiometricPayment',
  'getCollectionAttempt',
  'getMetrics',
  'getPaymentAuthorizationOptions',
  'getRegistrationOptions',
  'listEnrollments',
  'registerCredential',
];

/** Bank activities of more than one call, or of a call and what is done with it, written by hand. */
const composedBankActivityNames = ['collectReportPage', 'deliverAttemptsPages', 'fetchAttemptsSlicePage'];

const otherActivityNames = [
  'attemptsSyncPlan',
  'catchUpWindowEnd',
  'claimCashIns',
  'deliverNotification',
  'deliverSyncedAttempts',
  'discardReportStaging',
  'handOffNotification',
  'metricsAccounts',
  'previousScheduledTime',
  'storeMetricsSnapshot',
  'summarizeAttemptsSyncRecurrences',
  'writeListReport',
];

const enrollments = '/banking/cashin/pix/biometrics/enrollments';
const attempts = '/banking/cashin/pix/recurrences/collections/attempts';
const body = { external_id: 'x-1' };
const window = { from_datetime: '2025-01-01T00:00:00Z', to_datetime: '2025-02-01T00:00:00Z' };

interface Expected {
  args: unknown[];
  method: string;
  path: string;
  route: string;
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * What each method sent before endpoints were declared in resources: operation (the key), request and route.
 */
const requests: Record<keyof typeof bankEndpoints, Expected> = {
  findOrCreateDevice: {
    args: [body],
    method: 'POST',
    path: '/biometrics/devices',
    route: '/biometrics/devices',
    body,
  },
  listParticipants: {
    args: [{ device_id: 'd 1' }],
    method: 'GET',
    path: '/biometrics/participants',
    route: '/biometrics/participants',
    query: { device_id: 'd 1' },
  },
  createEnrollment: {
    args: [body],
    method: 'POST',
    path: enrollments,
    route: enrollments,
    body,
  },
  listEnrollments: {
    args: [{ device_id: 'd-1' }],
    method: 'GET',
    path: enrollments,
    route: enrollments,
    query: { device_id: 'd-1' },
  },
  getRegistrationOptions: {
    args: ['e/1'],
    method: 'GET',
    path: '/biometrics/enrollments/e%2F1/credentials',
    route: '/biometrics/enrollments/{enrollment_id}/credentials',
  },
  registerCredential: {
    args: ['e-1', body],
    method: 'POST',
    path: `${enrollments}/e-1/register`,
    route: `${enrollments}/{enrollment_id}/register`,
    body,
  },
  createBiometricPayment: {
    args: ['e-1', body],
    method: 'POST',
    path: `${enrollments}/e-1/payments`,
    route: `${enrollments}/{enrollment_id}/payments`,
    body,
  },
  getBiometricPayment: {
    args: ['e-1', 'p 1'],
    method: 'GET',
    path: `${enrollments}/e-1/payments/p%201`,
    route: `${enrollments}/{enrollment_id}/payments/{payment_id}`,
  },
  getPaymentAuthorizationOptions: {
    args: ['e-1', 'p-1'],
    method: 'GET',
    path: `${enrollments}/e-1/payments/p-1/credentials`,
    route: `${enrollments}/{enrollment_id}/payments/{payment_id}/credentials`,
  },
  authorizeBiometricPayment: {
    args: ['e-1', 'p-1', body],
    method: 'POST',
    path: `${enrollments}/e-1/payments/p-1/authorize`,
    route: `${enrollments}/{enrollment_id}/payments/{payment_id}/authorize`,
    body,
  },
  generateRecurrence: {
    args: [body],
    method: 'POST',
    path: '/banking/cashin/pix/recurrences',
    route: '/banking/cashin/pix/recurrences',
    body,
  },
  listCollectionAttempts: {
    args: [{ limit: 10 }],
    method: 'GET',
    path: attempts,
    route: attempts,
    query: { limit: '10' },
  },
  getCollectionAttempt: {
    args: ['a-1'],
    method: 'GET',
    path: `${attempts}/a-1`,
    route: `${attempts}/{attempt_id}`,
  },
  cancelBoleto: {
    args: ['b?1'],
    method: 'PUT',
    path: '/banking/cashin/boletos/b%3F1/cancel',
    route: '/banking/cashin/boletos/{boleto_id}/cancel',
  },
  getCard: {
    args: ['c-1'],
    method: 'GET',
    path: '/banking/cards/c-1',
    route: '/banking/cards/{card_id}',
  },
  getCardPurchaseByEndToEndId: {
    args: ['E1', { timestamp: '2025-01-01T00:00:00Z' }],
    method: 'GET',
    path: '/banking/cards/purchases/e2e/E1',
    route: '/banking/cards/purchases/e2e/{end_to_end_id}',
    query: { timestamp: '2025-01-01T00:00:00Z' },
  },
  getCurrentCardInvoice: {
    args: [{ entity_id: 'n-1' }],
    method: 'GET',
    path: '/banking/cards/invoices/current',
    route: '/banking/cards/invoices/current',
    query: { entity_id: 'n-1' },
  },
  listReceivableRefunds: {
    args: [],
    method: 'GET',
    path: '/banking/cashin/refunds',
    route: '/banking/cashin/refunds',
    query: {},
  },
  listTransfers: {
    args: [window],
    method: 'GET',
    path: '/banking/cashout/transfer',
    route: '/banking/cashout/transfer',
    query: window,
  },
  getMetrics: {
    args: [{ bank_account_id: 'ba-1', ...window }],
    method: 'GET',
    path: '/banking/metric',
    route: '/banking/metric',
    query: { bank_account_id: 'ba-1', ...window },
  },
};

interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

async function readRequest(request: IncomingMessage): Promise<Received> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  const url = new URL(request.url ?? '/', 'http://stub');
  return {
    method: request.method ?? '',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: text ? JSON.parse(text) : undefined,
  };
}

describe('bank resources: each endpoint declared once, its client method and activity derived', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let stub: StubBank;
  let bank: BankClient;
  let status = 404;
  const received: Received[] = [];

  beforeAll(async () => {
    tracing = startTracing('bank-resources-test', exporter);
    stub = await startStubBank((request, response) => {
      void readRequest(request).then((read) => {
        received.push(read);
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errors: [{ title: 'STUBBED', detail: 'answered by the stub' }] }));
      });
    });
    bank = new BankClient(
      { clientId: 'unit', clientSecret: 'unit', baseUrl: stub.baseUrl, timeoutMs: 5_000 },
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await stub?.stop();
    await tracing?.shutdown();
  });

  /** Calls `name` on `target` (the client, or the activities) with the arguments the table gives it. */
  const invoke = (target: object, name: string) =>
    (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]?.(
      ...requests[name as keyof typeof requests].args,
    ) ?? Promise.reject(new Error(`no ${name}`));

  async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
    return call().then(
      () => {
        throw new Error('the stub answers only errors');
      },
      (error: unknown) => error,
    );
  }

  it('gives BankClient a method per declared endpoint and a listAll method per list paged by cursors', () => {
    const methods = Object.getOwnPropertyNames(BankClient.prototype).filter((name) => name !== 'constructor');
    expect(methods.sort()).toEqual(
      [
        ...Object.keys(bankEndpoints),
        'listAllCollectionAttempts',
        'listAllReceivableRefunds',
        'listAllTransfers',
      ].sort(),
    );
  });

  it('sends each method as before: operation, HTTP method, encoded path, query, body, and a span named by its route', async () => {
    expect(Object.keys(requests).sort()).toEqual(Object.keys(bankEndpoints).sort());
    for (const [operation, expected] of Object.entries(requests)) {
      received.length = 0;
      const error = await failureOf(() => invoke(bank, operation));
      expect(error).toBeInstanceOf(BankError);
      expect({ operation, context: (error as BankError).context }).toMatchObject({
        operation,
        context: { operation, method: expected.method, path: expected.path, status: 404 },
      });
      expect(received).toEqual([
        {
          method: expected.method,
          path: expected.path,
          query: expected.query ?? {},
          body: expected.body,
        },
      ]);
    }
    await tracing.spanProcessor.forceFlush();
    const spans = exporter.getFinishedSpans();
    for (const [operation, expected] of Object.entries(requests)) {
      const span = spans.find((candidate) => candidate.attributes['bankflow.bank.operation'] === operation);
      expect({ operation, name: span?.name, route: span?.attributes['http.route'] }).toEqual({
        operation,
        name: `${expected.method} ${expected.route}`,
        route: expected.route,
      });
    }
  });

  it('refuses both cursors on every list paged by cursors before sending anything', async () => {
    received.length = 0;
    const both = { before: 'b', after: 'a' };
    for (const call of [
      () => bank.listCollectionAttempts(both),
      () => bank.listReceivableRefunds(both),
      () => bank.listTransfers({ ...window, ...both }),
    ]) {
      expect(await failureOf(call)).toBeInstanceOf(PageCursorConflictError);
    }
    expect(received).toEqual([]);
  });

  it('registers an activity for exactly the endpoints declared as workflow calls, under the names workflows use', () => {
    const declared = Object.entries(bankEndpoints)
      .filter(([, definition]) => definition.activity)
      .map(([name]) => name);
    expect(declared.sort()).toEqual(bankCallActivityNames);
    expect(Object.keys(createBankCallActivities(bank)).sort()).toEqual(bankCallActivityNames);

    const activities = createActivities({
      bank,
      jobs: { reportsDir: '/nonexistent', metricsBankAccountIds: [] },
      temporal: new Client(),
      taskQueue: 'bankflow',
    });
    expect(Object.keys(activities).sort()).toEqual(
      [...bankCallActivityNames, ...composedBankActivityNames, ...otherActivityNames].sort(),
    );
    expect([...bankActivityNames(activities)].sort()).toEqual(
      [...bankCallActivityNames, ...composedBankActivityNames].sort(),
    );
  });

  it.each([
    [404, 'BankNotFound'],
    [503, 'BankUnavailable'],
  ])(
    'turns a bank answer of HTTP %i into the ApplicationFailure %s in every derived activity, its retrying left to the policy',
    async (answer, type) => {
      status = answer;
      try {
        const activities = createBankCallActivities(bank);
        for (const name of bankCallActivityNames) {
          const clientError = (await failureOf(() => invoke(bank, name))) as BankError;
          const failure = await failureOf(() => invoke(activities, name));
          expect(failure).toBeInstanceOf(ApplicationFailure);
          const { type: failureType, nonRetryable } = failure as ApplicationFailure;
          expect({ name, type: failureType, nonRetryable }).toEqual({ name, type, nonRetryable: false });
          // The policy a bank call gets by default stops retrying exactly the types the bank would answer
          // again.
          expect(bankCallOptions.retry?.nonRetryableErrorTypes?.includes(type)).toBe(!clientError.retryable);
        }
      } finally {
        status = 404;
      }
    },
  );
});
