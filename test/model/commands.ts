import fc from 'fast-check';
import type { BiometricPaymentStatus } from '../../src/bank/schemas/biometric-payment.js';
import type { EnrollmentStatus } from '../../src/bank/schemas/enrollment.js';
import { malformedBodyRule, unknownStatusRule, type Fault, type ReadFault } from './faults.js';

const second = 1_000;
const minute = 60 * second;
const hour = 60 * minute;

/** How the bank's webhook for a change of its record reaches the workflow. */
export type Delivery = 'sent' | 'lost' | 'twice' | 'held';

/** One move of the bank, the customer or the clock; `S` is the resource's status. */
export type Command<S extends string> =
  /** The bank changes its record to its `pick`-th possible next status; its GET lags `lag` reads behind. */
  | { do: 'bank-moves'; pick: number; delivery: Delivery; lag: number }
  /** The customer submits an assertion (authorize, or register a credential), once or twice in a row. */
  | { do: 'customer'; assertion: 'valid' | 'invalid'; times: 1 | 2 }
  /** The webhooks held back arrive, newest first: late and reordered. */
  | { do: 'deliver-held' }
  /** The webhook of the record `back` versions ago arrives again. */
  | { do: 'stale-webhook'; back: number }
  /** A webhook for this resource with a status the bank's record does not show: the GET contradicts it. */
  | { do: 'false-webhook'; status: S }
  /** A webhook naming another resource. */
  | { do: 'foreign-webhook'; status: S }
  /** The next `count` bank calls fail this way. */
  | { do: 'fault'; fault: Fault; count: number }
  /**
   * The next `count` reads of the record are refused, or answered strangely: none of them may end the
   * journey.
   */
  | { do: 'read-fault'; fault: ReadFault; count: number }
  | { do: 'wait'; ms: number };

/**
 * After the commands: the bank brings its record to a final status (its `pick`-th), or leaves it as it is.
 */
export type Ending = { do: 'finish'; pick: number; delivery: Delivery } | { do: 'leave' };

const delivery = fc.constantFrom<Delivery>('sent', 'sent', 'lost', 'twice', 'held');

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ kind: 'unavailable' }),
  fc.constant<Fault>({ kind: 'timeout' }),
  fc.constantFrom(1, 5, 30, 90).map((s): Fault => ({ kind: 'rate-limited', retryAfterMs: s * second })),
);

/** A credential rotation's 401, a 403, a status the spec does not list, a body cut short. */
const readFault = fc.constantFrom<ReadFault>(
  { kind: 'refused', status: 401 },
  { kind: 'refused', status: 403 },
  { kind: 'altered', rule: unknownStatusRule },
  { kind: 'altered', rule: malformedBodyRule },
);

const wait = fc.constantFrom(second, 15 * second, minute, 5 * minute, 20 * minute, 2 * hour, 26 * hour);

function command<S extends string>(statuses: readonly S[]): fc.Arbitrary<Command<S>> {
  const status = fc.constantFrom(...statuses);
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        do: fc.constant('bank-moves' as const),
        pick: fc.nat(3),
        delivery,
        lag: fc.nat(3),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        do: fc.constant('customer' as const),
        assertion: fc.constantFrom('valid' as const, 'valid' as const, 'invalid' as const),
        times: fc.constantFrom(1 as const, 2 as const),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ do: 'deliver-held' as const }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('stale-webhook' as const), back: fc.nat(3) }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('false-webhook' as const), status }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('foreign-webhook' as const), status }) },
    {
      weight: 2,
      arbitrary: fc.record({
        do: fc.constant('fault' as const),
        fault,
        count: fc.integer({ min: 1, max: 3 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        do: fc.constant('read-fault' as const),
        fault: readFault,
        count: fc.integer({ min: 1, max: 3 }),
      }),
    },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('wait' as const), ms: wait }) },
  );
}

const ending: fc.Arbitrary<Ending> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ do: fc.constant('finish' as const), pick: fc.nat(3), delivery }) },
  { weight: 1, arbitrary: fc.constant({ do: 'leave' as const }) },
);

const commands = <S extends string>(statuses: readonly S[]) =>
  fc.array(command(statuses), { minLength: 1, maxLength: 8 });

export interface PaymentScenario {
  /** What the first reads, the enrollment check's, meet at the bank. */
  checkFaults: ReadFault[];
  /** The status the bank's answer to create shows. */
  created: BiometricPaymentStatus;
  commands: Command<BiometricPaymentStatus>[];
  ending: Ending;
}

export const paymentScenario: fc.Arbitrary<PaymentScenario> = fc.record({
  checkFaults: fc.oneof(
    { weight: 3, arbitrary: fc.constant<ReadFault[]>([]) },
    fc.array(readFault, { maxLength: 2 }),
  ),
  created: fc.constantFrom<BiometricPaymentStatus>(
    'awaiting_consent',
    'awaiting_consent',
    'created',
    'pending',
  ),
  commands: commands<BiometricPaymentStatus>(['awaiting_payment', 'settled', 'failed', 'rejected']),
  ending,
});

export interface EnrollmentScenario {
  commands: Command<EnrollmentStatus>[];
  ending: Ending;
}

export const enrollmentScenario: fc.Arbitrary<EnrollmentScenario> = fc.record({
  commands: commands<EnrollmentStatus>([
    'awaiting_enrollment',
    'authorized',
    'revoked',
    'rejected',
    'inactive',
  ]),
  ending,
});

/** One line per move, for a failure's message. */
export function describeScenario(
  scenario: { commands: Command<string>[]; ending: Ending },
  extra = '',
): string {
  const lines = [...scenario.commands, scenario.ending].map(
    (move, i) => `  ${String(i + 1).padStart(2)}. ${JSON.stringify(move)}`,
  );
  return [extra, ...lines].filter(Boolean).join('\n');
}
