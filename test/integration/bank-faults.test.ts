import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import { workflowIds } from '../../src/contract/ids.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import {
  authorizePayment,
  getEnrollment,
  getPayment,
  getRecurrence,
  startRecurrence,
  waitForPaymentResult,
} from '../../src/starter/index.js';
import { control, enroll, eventually, fastPolling, keyOf, newCustomer, world } from '../helpers/journey.js';
import { recurrenceRequest } from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/** How long the bank refuses bankflow's credentials, as during a rotation at the bank. */
const rotationMs = 120_000;
/** Waits that span the rotation: every one ends on an event, this only bounds a failure. */
const acrossRotation = rotationMs + 60_000;

let sequence = 0;
const uniqueRef = (label: string) => `${label}-${Date.now()}-${++sequence}`;

/**
 * A credential rotation and a schema drift at the bank, against a payment waiting for consent, a payment in
 * processing, an authorized enrollment and a recurrence at once: the reads they make meanwhile fail or answer
 * a status bankflow does not know, none of them ends, each shows the trouble while it lasts, and each goes on
 * by itself once the bank answers again (docs/reliability.md, "What the bank's answers do").
 */
describe('two minutes of 401s and a status bankflow does not know end no journey', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // Payments wait in processing until the test settles them through the control API.
    stack = await startTestStack({ receiver: true, sandbox: { biometrics: { settlementDelayMs: null } } });
  });
  afterAll(() => stack?.stop());

  const searchAttributesOf = async (workflowId: string) =>
    (await stack.client.workflow.getHandle(workflowId).describe()).searchAttributes;
  const troubleOf = async (workflowId: string) => (await searchAttributesOf(workflowId)).BankflowBankTrouble;

  it(
    'follows every journey through the rotation and the drift, and each settles or goes on afterwards',
    async () => {
      const customer = await newCustomer(stack);
      const { result: enrolled } = await enroll(stack, customer, { polling: fastPolling });
      expect(enrolled.outcome).toBe('authorized');
      const enrollmentId = enrolled.enrollment?.id ?? '';
      const pay = (label: string) =>
        startTunedPayment(
          stack,
          {
            externalId: uniqueRef(label),
            enrollmentId,
            deviceId: customer.deviceId,
            amountCents: 12_345,
            description: 'Pedido 1234',
            ...world(stack),
          },
          { polling: fastPolling, cashInWaitMs: 2_000 },
        );
      const awaitingConsent = await pay('consent');
      const processing = await pay('processing');
      await authorizePayment(stack, {
        externalId: processing.externalId,
        assertion: customer.authenticator.getAssertion(processing.publicKeyEncoded, stack.sandbox.url),
      });
      await eventually(
        () => getPayment(stack, { externalId: processing.externalId }),
        (state) => state.phase === 'awaiting_payment',
      );
      const request = recurrenceRequest(stack);
      const { recurrence } = await startRecurrence(stack, request);

      const ids = {
        consent: workflowIds.payment(awaitingConsent.externalId),
        processing: workflowIds.payment(processing.externalId),
        enrollment: workflowIds.enrollment(customer.deviceId, customer.participantId),
        recurrence: workflowIds.recurrence(request.external_id),
      };

      // The rotation: every bank call is refused for two minutes.
      await control(stack, 'POST', '/sandbox/faults/rules', {
        fail_next: [{ status: 401, for_ms: rotationMs }],
      });
      const rotationEnds = Date.now() + rotationMs;
      // A webhook sends the authorized enrollment to the bank's list; an attempt's webhook sends the
      // recurrence to the attempt's GET. Both reads are refused. (The hint names a status the bank's record
      // does not show, so the workflow asks; the bank's list decides.)
      await control(stack, 'POST', '/sandbox/webhooks/events', {
        category: webhookCategories.enrollment,
        type: 'revoked',
        ref_id: enrollmentId,
        data: { ...enrolled.enrollment, status: 'revoked' },
      });
      const [attempt] = (await control(stack, 'POST', `/sandbox/recurrences/${recurrence.id}/attempts`, {
        attempts: [{ status: 'created' }],
      })) as unknown as CollectionAttempt[];

      // Each payment, the enrollment and the recurrence show the trouble support filters on, and are still
      // running.
      for (const workflowId of Object.values(ids)) {
        await eventually(
          () => troubleOf(workflowId),
          (trouble) => JSON.stringify(trouble) === JSON.stringify(['BankUnauthorized']),
          rotationMs,
        );
      }
      const consentState = await getPayment(stack, { externalId: awaitingConsent.externalId });
      expect(['created', 'awaiting_consent']).toContain(consentState.phase);
      expect(consentState).toMatchObject({
        bankTrouble: { type: 'BankUnauthorized', httpStatus: 401 },
      });
      expect(await getEnrollment(stack, keyOf(customer))).toMatchObject({
        phase: 'authorized',
        bankTrouble: { type: 'BankUnauthorized', httpStatus: 401 },
      });
      expect(await getRecurrence(stack, { externalId: request.external_id })).toMatchObject({
        phase: 'active',
        bankTrouble: { type: 'BankUnauthorized', httpStatus: 401 },
      });
      expect(Date.now()).toBeLessThan(rotationEnds);

      // Once the bank answers again, the trouble clears by itself: no reset, no new start.
      for (const workflowId of Object.values(ids)) {
        await eventually(
          async () => ({ workflowId, trouble: await troubleOf(workflowId) }),
          ({ trouble }) => !trouble?.length,
          acrossRotation,
        );
      }
      expect(Date.now()).toBeGreaterThanOrEqual(rotationEnds);
      const confirmed = await eventually(
        () => getRecurrence(stack, { externalId: request.external_id }),
        (state) => state.attempts.some((known) => known.id === attempt?.id),
        acrossRotation,
      );
      expect(confirmed.phase).toBe('active');

      // The drift: the payments' reads answer a status the spec does not list, kept as sent and shown as
      // unknown.
      await control(stack, 'POST', '/sandbox/faults/rules', {
        alter_next: [
          {
            mode: 'unknown_status',
            status: 'under_review',
            path_prefix: '/banking/cashin/pix/biometrics/',
            count: 6,
          },
        ],
      });
      // Polls run every second here, so the drift may be over by the time the state is read: the evidence
      // keeps it.
      for (const payment of [awaitingConsent, processing]) {
        const seen = await eventually(
          () => getPayment(stack, { externalId: payment.externalId }),
          (state) => state.evidence.some((entry) => entry.status === 'under_review'),
        );
        expect(seen.evidence).toContainEqual(
          expect.objectContaining({
            source: 'poll',
            status: 'under_review',
            detail: expect.stringMatching(/unknown/),
          }),
        );
      }
      // Spent, the bank's own statuses come back, and the journeys go on from them.
      await eventually(
        () => getPayment(stack, { externalId: awaitingConsent.externalId }),
        (state) => ['created', 'awaiting_consent'].includes(state.phase) && state.unknownStatus === undefined,
      );
      await eventually(
        () => getPayment(stack, { externalId: processing.externalId }),
        (state) => state.phase === 'awaiting_payment' && state.unknownStatus === undefined,
      );

      expect(
        await authorizePayment(stack, {
          externalId: awaitingConsent.externalId,
          assertion: customer.authenticator.getAssertion(awaitingConsent.publicKeyEncoded, stack.sandbox.url),
        }),
      ).toEqual({ ok: true, status: 'awaiting_payment' });
      for (const payment of [awaitingConsent, processing]) {
        await control(stack, 'POST', `/sandbox/biometrics/payments/${payment.payment.id}/settle`, {});
        const result = await waitForPaymentResult(stack, { externalId: payment.externalId });
        expect(result).toMatchObject({ outcome: 'settled', status: 'settled' });
      }
      expect(await getEnrollment(stack, keyOf(customer))).toMatchObject({ phase: 'authorized' });
      expect((await getRecurrence(stack, { externalId: request.external_id })).phase).toBe('active');
    },
    2 * acrossRotation,
  );
});
