import {
  getEnrollment,
  getRegistrationOptions,
  InvalidInputError,
  registerCredential,
  RequestRefusedError,
  RequestTimedOutError,
  startEnrollment,
  StartTermsConflictError,
  waitForEnrollment,
} from '../../src/starter/index.js';
import { workflowIds } from '../../src/contract/ids.js';
import {
  control,
  enroll,
  eventually,
  fastPolling,
  keyOf,
  newCustomer,
  waitForPhase,
} from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { recordHistory } from '../helpers/replay.js';

describe('enrollment workflow through the receiver and the sandbox bank', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
  });
  afterAll(() => stack?.stop());

  it('enrolls a device: redirect URL at once, bank authorization, registration, authorized', async () => {
    const customer = await newCustomer(stack);
    const { started, registered, result } = await enroll(stack, customer);

    expect(started.workflowId).toBe(workflowIds.enrollment(customer.deviceId, customer.participantId));
    expect(started.redirectUrl).toBe(
      `${stack.sandbox.url}/sandbox/bank-authorization/${started.enrollmentId}`,
    );
    expect(started.status).toBe('awaiting_account_holder_validation');
    expect(registered).toMatchObject({ ok: true, status: 'authorized' });
    expect(result.outcome).toBe('authorized');
    expect(result.enrollment?.id).toBe(started.enrollmentId);

    const state = await getEnrollment(stack, keyOf(customer));
    expect(state).toMatchObject({ phase: 'authorized', enrollmentId: started.enrollmentId });
    expect(state.accountInfo?.ispb).toMatch(/^\d{8}$/);
    // Counters reach the memo with the next change worth publishing, so the first webhook is all that is
    // sure.
    expect(state.webhooksReceived).toBeGreaterThanOrEqual(1);

    const description = await stack.client.workflow.getHandle(started.workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.searchAttributes).toMatchObject({
      BankflowKind: ['enrollment'],
      BankflowStatus: ['authorized'],
      BankflowDeviceId: [customer.deviceId],
      BankflowParticipantId: [customer.participantId],
      BankflowEnrollmentId: [started.enrollmentId],
    });
    expect(await description.staticSummary()).toContain(customer.deviceId);

    const again = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/enrolled',
    });
    expect(again.enrollmentId).toBe(started.enrollmentId);
    await expect(
      startEnrollment(stack, { ...keyOf(customer), returnToUrl: 'https://merchant.example/again' }),
    ).rejects.toThrow(StartTermsConflictError);
  });

  it('ends as revoked when the customer revokes the authorized enrollment at the bank', async () => {
    const customer = await newCustomer(stack);
    const { started } = await enroll(stack, customer);
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/revoke`);
    const result = await stack.client.workflow.getHandle(started.workflowId).result();
    expect(result.outcome).toBe('revoked');
    expect(result.reason).toMatch(/revoked/);
    expect(await waitForEnrollment(stack, keyOf(customer))).toEqual(result);
    await recordHistory(stack.client, started.workflowId, 'enrollment-revoked');
  });

  it('ends as rejected when the bank rejects the enrollment', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/reject`);
    const result = await waitForEnrollment(stack, keyOf(customer));
    expect(result.outcome).toBe('rejected');
    expect((await getEnrollment(stack, keyOf(customer))).phase).toBe('rejected');
  });

  it('ends as expired when the bank expires it', async () => {
    const expiredAtBank = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(expiredAtBank),
      returnToUrl: 'https://merchant.example/x',
    });
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/expire`);
    expect((await waitForEnrollment(stack, keyOf(expiredAtBank))).outcome).toBe('expired');
  });

  it('reports a blocked enrollment when the bank authorizes an account other than the suggested one', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
      suggestedAccount: { ispb: '60701190', issuer: '0001', number: '12345-6', account_type: 'checking' },
    });
    await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {
        account_info: { branch: '0001', number: '99999', digit: '9' },
      },
    );
    await waitForPhase(stack, customer, 'awaiting_enrollment');
    const options = await getRegistrationOptions(stack, keyOf(customer));
    await registerCredential(stack, {
      ...keyOf(customer),
      assertion: customer.authenticator.createCredential(options, stack.sandbox.url),
    });
    const result = await waitForEnrollment(stack, keyOf(customer));
    expect(result.outcome).toBe('blocked');
    expect(result.reason).toMatch(/other than the suggested one/);
    await recordHistory(stack.client, started.workflowId, 'enrollment-blocked');
  });

  it('refuses a tampered attestation with the bank reason, then accepts a good one', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {},
    );
    await waitForPhase(stack, customer, 'awaiting_enrollment');

    const options = await getRegistrationOptions(stack, keyOf(customer));
    const good = customer.authenticator.createCredential(options, stack.sandbox.url);
    const wrongOrigin = customer.authenticator.createCredential(options, 'https://evil.example');
    const refused = await registerCredential(stack, { ...keyOf(customer), assertion: wrongOrigin });
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.reason).toMatch(/origin/);
    expect((await getEnrollment(stack, keyOf(customer))).phase).toBe('awaiting_enrollment');

    expect(await registerCredential(stack, { ...keyOf(customer), assertion: good })).toMatchObject({
      ok: true,
    });
    expect((await waitForEnrollment(stack, keyOf(customer))).outcome).toBe('authorized');
    await recordHistory(stack.client, started.workflowId, 'enrollment-refused-then-authorized');
  });

  it('holds an early options request until the bank authorization, refuses an early credential, and joins', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    const joined = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    expect(joined).toEqual(started);

    const options = getRegistrationOptions(stack, keyOf(customer));
    // A credential the customer could not have made yet: options of the bank's form, with a challenge of our
    // own.
    const unissued = JSON.stringify({
      challenge: 'bm90LWlzc3VlZA',
      rp: { id: 'localhost', name: 'bankflow sandbox' },
      user: { id: 'dXNlcg', name: 'customer', displayName: 'customer' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    });
    const early = await registerCredential(stack, {
      ...keyOf(customer),
      assertion: customer.authenticator.createCredential(unissued, stack.sandbox.url),
    }).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(RequestRefusedError);
    expect((early as Error).message).toMatch(
      /possible only while the enrollment is awaiting_enrollment; it is awaiting_account_holder_validation/,
    );

    await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {},
    );
    const registered = await registerCredential(stack, {
      ...keyOf(customer),
      assertion: customer.authenticator.createCredential(await options, stack.sandbox.url),
    });
    expect(registered).toMatchObject({ ok: true });
    expect((await waitForEnrollment(stack, keyOf(customer))).outcome).toBe('authorized');
    const late = await getRegistrationOptions(stack, keyOf(customer)).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(RequestRefusedError);
    expect((late as Error).message).toMatch(/it is authorized$/);
    await recordHistory(stack.client, started.workflowId, 'enrollment-early-requests');
  });

  it('gives up on an answer after the reply timeout, saying the request may still be carried out', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    const impatient = await getRegistrationOptions({ ...stack, replyTimeoutMs: 300 }, keyOf(customer)).catch(
      (error: unknown) => error,
    );
    expect(impatient).toBeInstanceOf(RequestTimedOutError);
    expect((impatient as Error).message).toBe(
      `${started.workflowId} did not answer within 0.3 s; ask again with the same request id`,
    );
  });

  it('refuses bad input naming the field', async () => {
    const customer = await newCustomer(stack);
    await expect(
      startEnrollment(stack, {
        deviceId: 'nope',
        participantId: customer.participantId,
        returnToUrl: 'https://x.example',
      }),
    ).rejects.toThrow(new InvalidInputError('deviceId', 'must be a uuid (8-4-4-4-12 hex digits)'));
    await expect(startEnrollment(stack, { ...keyOf(customer), returnToUrl: 'ftp://x' })).rejects.toThrow(
      /^returnToUrl: /,
    );
  });

  it('completes on polling alone when every webhook is lost', async () => {
    const customer = await newCustomer(stack);
    stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 1 });
    try {
      const { result } = await enroll(stack, customer, { polling: fastPolling });
      expect(result.outcome).toBe('authorized');
      const state = await getEnrollment(stack, keyOf(customer));
      expect(state.webhooksReceived).toBe(0);
      expect(state.polls).toBeGreaterThan(0);
    } finally {
      stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 0 });
    }
  });

  it('ignores duplicated and reordered webhooks', async () => {
    const customer = await newCustomer(stack);
    stack.sandbox.faults.configure({
      ...stack.sandbox.faults.current(),
      webhook_duplicate_rate: 1,
      webhook_reorder_rate: 0.5,
    });
    try {
      const { started, result } = await enroll(stack, customer);
      expect(result.outcome).toBe('authorized');
      // Every copy was acknowledged; the receiver answers most second copies from its memory of accepted
      // events, and the workflow drops by key any that reached it.
      const copies = await eventually(
        async () =>
          stack.sandbox.webhooks.log
            .listAttempts({ ref_id: started.enrollmentId })
            .filter((attempt) => attempt.copy === 2),
        (attempts) => attempts.length > 0,
      );
      expect(copies.every((attempt) => attempt.status_code === 202)).toBe(true);
      const state = await getEnrollment(stack, keyOf(customer));
      expect(state.phase).toBe('authorized');
      expect(state.enrollmentId).toBe(started.enrollmentId);
    } finally {
      stack.sandbox.faults.configure({
        ...stack.sandbox.faults.current(),
        webhook_duplicate_rate: 0,
        webhook_reorder_rate: 0,
      });
    }
  });
});
