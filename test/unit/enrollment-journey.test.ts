import type { Enrollment, EnrollmentStatus } from '../../src/bank/schemas/enrollment.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import type { EnrollmentInput } from '../../src/contract/enrollment.js';
import {
  adoptRecord,
  concludeAuthorized,
  ended,
  enrollmentResult,
  pendingStep,
  startJourney,
  stepExpired,
  webhookHeard,
} from '../../src/workflows/enrollment/journey.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';

const enrollmentId = '0b0c1d2e-3f40-4152-8637-48596a7b8c9d';
const input: EnrollmentInput = {
  deviceId: '3e3f4051-6273-4485-b96a-7b8c9daebfc0',
  participantId: '4f405162-7384-4596-ca7b-8c9daebfc0d1',
  returnToUrl: 'https://shop.example/back',
  externalId: 'enrollment-1',
};

function record(
  status: EnrollmentStatus,
  updatedAt = '2030-01-01T12:00:00.000Z',
  id = enrollmentId,
): Enrollment {
  return {
    id,
    status,
    redirect_url: 'https://bank.example/authorize',
    expiration_datetime: null,
    account_info: null,
    inserted_at: '2030-01-01T12:00:00.000Z',
    updated_at: updatedAt,
  } as unknown as Enrollment;
}

function webhook(data: Enrollment): ReceivedWebhook {
  const envelope = {
    category: webhookCategories.enrollment,
    type: data.status,
    ref_id: data.id,
    timestamp: data.updated_at,
    data,
  };
  return {
    key: webhookEventKey(envelope),
    envelope,
    receivedAt: data.updated_at,
    resource: { kind: 'enrollment', data },
  };
}

describe('enrollment journey machine', () => {
  it('a revoked webhook the bank record does not show only asks the bank', () => {
    const journey = startJourney(input);
    adoptRecord(journey, record('authorized'), 'create response');
    concludeAuthorized(journey, input);
    expect(webhookHeard(journey, webhook(record('revoked', '2030-01-02T00:00:00.000Z')))).toBe(true);
    expect(ended(journey)).toBe(false);
    expect(journey.state.phase).toBe('authorized');
    expect(
      webhookHeard(
        journey,
        webhook(record('revoked', '2030-01-02T00:00:00.000Z', 'ffffffff-ffff-4fff-8fff-ffffffffffff')),
      ),
    ).toBe(false);
  });

  it('ends on the bank record, ignores an older view, and concludes once', () => {
    const journey = startJourney(input);
    adoptRecord(journey, record('awaiting_account_holder_validation'), 'create response');
    expect(pendingStep(journey)).toBe('awaiting_account_holder_validation');
    expect(adoptRecord(journey, record('awaiting_enrollment', '2030-01-01T12:01:00.000Z'), 'list')).toBe(
      true,
    );
    expect(
      adoptRecord(journey, record('awaiting_account_holder_validation', '2030-01-01T12:00:30.000Z'), 'list'),
    ).toBe(false);
    expect(adoptRecord(journey, record('rejected', '2030-01-01T12:02:00.000Z'), 'list')).toBe(true);
    expect(enrollmentResult(journey)).toMatchObject({
      outcome: 'rejected',
      reason: 'the bank reports the enrollment rejected (list)',
    });
    expect(adoptRecord(journey, record('revoked', '2030-01-01T12:03:00.000Z'), 'list')).toBe(false);
  });

  it('expires a step whose window passed while the bank record still showed it', () => {
    const journey = startJourney(input);
    adoptRecord(journey, record('awaiting_enrollment'), 'create response');
    stepExpired(journey);
    expect(enrollmentResult(journey)).toMatchObject({
      outcome: 'expired',
      reason: 'the biometric credential was not registered in time',
    });
  });

  it('blocks an authorization of an account other than the suggested one', () => {
    const suggested = {
      ...input,
      suggestedAccount: { ispb: '00000000', issuer: '0001', number: '12345-6', account_type: 'CACC' },
    };
    const journey = startJourney(suggested as EnrollmentInput);
    adoptRecord(journey, record('authorized'), 'register response');
    concludeAuthorized(journey, suggested as EnrollmentInput);
    expect(enrollmentResult(journey).outcome).toBe('blocked');
  });
});
