import { randomUUID } from 'node:crypto';
import {
  authorizePayment,
  BankUnreachableError,
  RequestTimedOutError,
  startEnrollment,
  startPayment,
} from '../../src/starter/index.js';
import type { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { control, eventually, keyOf, newCustomer, world, type Customer } from '../helpers/journey.js';
import { startBankPlayedStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

/** How long the starter waits for an answer in these tests, in real time. */
const replyTimeoutMs = 2_000;
/** What the starter may take beyond its deadline: the call's own round trips. */
const answerSlackMs = 1_500;

/** The outages a start meets: the whole bank, or only the create it must not land late. */
const startOutages: [string, object][] = [
  ['every call refused (503)', { fail_next: [{ count: 1_000_000, status: 503 }] }],
  [
    'only the payment create refused (503)',
    {
      fail_next: [
        {
          method: 'POST',
          path_prefix: `/banking/cashin/pix/biometrics/enrollments/`,
          count: 1_000_000,
          status: 503,
        },
      ],
    },
  ],
];

describe('the sandbox down for ten minutes during starts and authorizes, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  let customer: Customer;
  let enrollmentId: string;

  beforeAll(async () => {
    ({ stack, customer, enrollmentId } = await startBankPlayedStack());
  });
  afterAll(() => stack?.stop());
  afterEach(() => control(stack, 'PUT', '/sandbox/faults', {}));

  /** The starter as a checkout calls it: time moves only when the test skips it. */
  const starter = () => ({ ...stack, client: stack.manualTimeClient, replyTimeoutMs });

  const paymentRequest = (externalId: string) => ({
    externalId,
    enrollmentId,
    deviceId: customer.deviceId,
    amountCents: 2_500,
    description: 'bank outage test',
    ...world(stack),
  });

  /** The bank's own records of payments under `externalId`, from its audit view. */
  const paymentsAtBank = async (externalId: string) => {
    const payments = (await control(
      stack,
      'GET',
      `/sandbox/biometrics/payments?enrollment_id=${enrollmentId}`,
    )) as unknown as { external_id: string; status: string }[];
    return payments.filter((payment) => payment.external_id === externalId);
  };

  /** Runs `call`, expecting it to fail within the starter's deadline; answers the error. */
  const failsInTime = async (call: () => Promise<unknown>) => {
    const started = Date.now();
    const error = await call().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(Date.now() - started).toBeLessThan(replyTimeoutMs + answerSlackMs);
    return error;
  };

  const workflowStatus = (workflowId: string) => async () =>
    (await stack.client.workflow.getHandle(workflowId).describe()).status.name;

  it.each(startOutages)(
    'a start while %s: the starter answers within its deadline, the journey ends BankUnreachable, and no payment appears once the bank is back',
    async (_outage, faults) => {
      const externalId = `pix-${randomUUID()}`;
      const workflowId = `payment:${externalId}`;
      await control(stack, 'PUT', '/sandbox/faults', faults);

      const timedOut = await failsInTime(() => startPayment(starter(), paymentRequest(externalId)));
      expect(timedOut).toBeInstanceOf(RequestTimedOutError);
      expect(timedOut).toMatchObject({ retryable: true, sameId: true, workflowId });

      await stack.skip('10 minutes');
      await eventually(workflowStatus(workflowId), (status) => status === 'FAILED');
      await control(stack, 'PUT', '/sandbox/faults', {});

      // Asked again under the same id once the bank is back: the journey ended, and says to use a new id.
      const unreachable = await failsInTime(() => startPayment(starter(), paymentRequest(externalId)));
      expect(unreachable).toBeInstanceOf(BankUnreachableError);
      expect(unreachable).toMatchObject({
        type: 'BankUnreachable',
        retryable: true,
        sameId: false,
        message: expect.stringMatching(/could not be reached within the consent window.*new external id/),
      });
      // The journey's outcome: failed as BankUnreachable, which support staff read in the UI.
      await expect(stack.client.workflow.getHandle(workflowId).result()).rejects.toMatchObject({
        cause: { type: 'BankUnreachable', message: expect.stringMatching(/within the consent window/) },
      });

      // Whatever the worker still had in hand has had its time: the bank never created the payment.
      await stack.skip('1 hour');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await paymentsAtBank(externalId)).toEqual([]);
    },
  );

  it('an authorization while the bank is down: the starter answers within its deadline, the consent window ends it, and no authorization lands afterwards', async () => {
    const created = await startPayment(starter(), paymentRequest(`pix-${randomUUID()}`));
    await control(stack, 'PUT', '/sandbox/faults', { fail_next: [{ count: 1_000_000, status: 503 }] });
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    const request = { externalId: created.externalId, assertion };

    const timedOut = await failsInTime(() => authorizePayment(starter(), request));
    expect(timedOut).toBeInstanceOf(RequestTimedOutError);
    expect(timedOut).toMatchObject({ retryable: true, sameId: true });

    await stack.skip('10 minutes');
    await control(stack, 'PUT', '/sandbox/faults', {});
    // The same assertion asked again is the same request: its answer is that the window closed unreached.
    const answer = await eventually(
      () => authorizePayment(starter(), request).catch((error: unknown) => error),
      (reply) => !(reply instanceof RequestTimedOutError),
    );
    expect(answer).toEqual({
      ok: false,
      status: 'unknown',
      reason: 'the bank could not be reached before the consent window closed',
    });

    await stack.skip('1 minute');
    const [atBank] = await paymentsAtBank(created.externalId);
    expect(atBank?.status).toBe('awaiting_consent');
    expect(
      await control(stack, 'GET', `/sandbox/biometrics/payments/${created.payment.id}/authorize-calls`),
    ).toMatchObject({ successful: 0 });

    // The bank ends the payment it holds; the journey's outcome is what its record shows.
    await control(stack, 'POST', `/sandbox/biometrics/payments/${created.payment.id}/reject`, {});
    const handle = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    expect(await handle.result()).toMatchObject({ outcome: 'rejected', status: 'rejected' });
  });

  it('an enrollment start while the bank refuses its create (503): the starter answers within its deadline, the journey ends BankUnreachable, and no enrollment appears once the bank is back', async () => {
    const newcomer = await newCustomer(stack);
    await control(stack, 'PUT', '/sandbox/faults', {
      fail_next: [
        {
          method: 'POST',
          path_prefix: '/banking/cashin/pix/biometrics/enrollments',
          count: 1_000_000,
          status: 503,
        },
      ],
    });
    const request = { ...keyOf(newcomer), returnToUrl: 'https://merchant.example/enrolled' };

    const timedOut = await failsInTime(() => startEnrollment(starter(), request));
    expect(timedOut).toBeInstanceOf(RequestTimedOutError);
    expect(timedOut).toMatchObject({ retryable: true, sameId: true });
    const { workflowId } = timedOut as RequestTimedOutError;

    // Past the account holder's 15-minute window.
    await stack.skip('20 minutes');
    await eventually(workflowStatus(workflowId), (status) => status === 'FAILED');
    await control(stack, 'PUT', '/sandbox/faults', {});

    const unreachable = await failsInTime(() => startEnrollment(starter(), request));
    expect(unreachable).toBeInstanceOf(BankUnreachableError);
    expect(unreachable).toMatchObject({ retryable: true, sameId: false, type: 'BankUnreachable' });
    await expect(stack.client.workflow.getHandle(workflowId).result()).rejects.toMatchObject({
      cause: { type: 'BankUnreachable', message: expect.stringMatching(/account holder's window/) },
    });

    await stack.skip('1 hour');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(
      await control(stack, 'GET', `/sandbox/biometrics/enrollments?device_id=${newcomer.deviceId}`),
    ).toEqual([]);
  });
});
