import fc from 'fast-check';
import type { BankClient } from '../../src/bank/client.js';
import type { GenerateRecurrenceRequest } from '../../src/bank/schemas/recurrence.js';
import type { SchedulesConfig } from '../../src/config.js';
import * as starter from '../../src/starter/index.js';
import { jobIds } from '../../src/contract/jobs.js';
import { text } from '../helpers/fuzz.js';

type Input = Record<string, unknown>;

/** A value a field must refuse, and what the refusal's reason must say when the schema words it. */
export interface BadValue {
  value: unknown;
  reason?: RegExp;
}

/**
 * One starter function: a valid input, the fields that may be left out, and wrong values of the right type.
 */
export interface StarterCase {
  name: string;
  valid: Input;
  /** Dotted paths of optional members: leaving them out is no error. */
  optional: string[];
  /** Well-typed but wrong values for some fields, by dotted path. */
  wrong: Record<string, fc.Arbitrary<BadValue>>;
  call(input: unknown): Promise<unknown>;
}

export interface Contexts {
  starter: starter.StarterContext;
  bank: { bank: BankClient };
  schedules: starter.SchedulesContext;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bad = (arbitrary: fc.Arbitrary<unknown>, reason?: RegExp) =>
  arbitrary.map((value): BadValue => ({ value, reason }));

const notUuid = bad(
  fc.oneof(
    text(40).filter((value) => !uuidShape.test(value)),
    fc.uuid().map((id) => id.replaceAll('-', '')),
    fc.uuid().map((id) => `${id}0`),
    fc.constant(''),
  ),
  /must be a uuid/,
);
const notPositiveInt = bad(
  fc.oneof(fc.integer({ max: 0 }), fc.constantFrom(1.5, 0.001, Infinity, Number.NaN, 2 ** 60)),
);
const empty = bad(fc.constant(''));
const notDateTime = bad(
  fc.oneof(
    fc.constantFrom('yesterday', '2025-13-01T00:00:00Z', '2025-06-01', '2025-06-01 10:00:00Z', '1717200000'),
    text(20).filter((value) => !/^\d{4}-/.test(value)),
  ),
);
const notDate = bad(
  fc.oneof(
    fc.constantFrom('2025-13-01', '2025-6-1', '01/06/2025', '2025-06-01T00:00:00Z', '2025-02-30', 'tomorrow'),
    text(20).filter((value) => !/^\d{4}-\d{2}-\d{2}$/.test(value)),
  ),
);
const notBase64url = bad(
  fc.oneof(
    fc.constantFrom('', 'a b', 'abc+/', 'é', '==abc'),
    fc.string({ unit: 'grapheme-ascii', minLength: 1 }).map((v) => `${v}!`),
  ),
  /base64url|empty/,
);
const tooLong = (max: number, reason?: RegExp) =>
  bad(
    fc.integer({ min: max + 1, max: max + 300 }).map((length) => 'x'.repeat(length)),
    reason,
  );
const outside = (values: string[]) =>
  bad(
    fc
      .oneof(text(20), fc.constantFrom(...values.map((value) => value.toUpperCase())))
      .filter((v) => !values.includes(v)),
  );
const digitsOtherThan = (lengths: number[], reason: RegExp) =>
  bad(
    fc.oneof(
      fc
        .integer({ min: 1, max: 20 })
        .filter((n) => !lengths.includes(n))
        .map((n) => '7'.repeat(n)),
      fc.constantFrom(...lengths).map((n) => `${'1'.repeat(n - 1)}a`),
    ),
    reason,
  );

/** Well-formed ids for merchant input, the same in every case. */
export const ids = {
  device: '6f1e3a52-7c1d-4c55-9b3e-0a1b2c3d4e5f',
  participant: '0b6b7a52-3a1e-4f57-8d2c-5e6f7a8b9c0d',
  enrollment: '9d1c2b3a-4e5f-4a6b-8c7d-1e2f3a4b5c6d',
  entity: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  account: '3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e',
};

const registerAssertion = {
  id: 'Y3JlZGVudGlhbA',
  raw_id: 'Y3JlZGVudGlhbA',
  type: 'public-key',
  response: { attestation_object: 'o2NmbXRkbm9uZQ', client_data_JSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0' },
};
const authorizeAssertion = {
  id: 'Y3JlZGVudGlhbA',
  raw_id: 'Y3JlZGVudGlhbA',
  type: 'public-key',
  response: {
    authenticator_data: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2M',
    client_data_JSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    signature: 'MEUCIQD',
    user_handle: 'dXNlcg',
  },
};
const assertionWrongs = (prefix: string, response: string[]) => ({
  [`${prefix}.id`]: notBase64url,
  [`${prefix}.raw_id`]: notBase64url,
  [`${prefix}.type`]: bad(fc.constantFrom('public_key', 'Public-Key', 'password', '')),
  ...Object.fromEntries(response.map((member) => [`${prefix}.response.${member}`, notBase64url])),
});

export const recurrenceRequest: GenerateRecurrenceRequest = {
  amounts: { minimum: 1_990 },
  contract_number: 'CT-2025-0001',
  counterparty: {
    name: 'Maria Souza',
    tax_number: '12345678901',
    bank_account: { branch: '0001', digit: '7', ispb: '18236120', number: '1234567' },
  },
  description: 'Plano mensal',
  external_id: 'fuzz-recurrence-1',
  first_payment: {
    amount: 1_990,
    dict_key: 'maria@example.com',
    due_detail: {
      due_date: '2025-07-05',
      discount_amounts: [100],
      discount_dates: ['2025-07-01'],
      fine: 2,
      interest: 1,
    },
  },
  options: { automatic_schedule: true, qrcode_expiration_seconds: 3600, retry_policy: '3r_7d' },
  periodicity: 'mnth',
  start_date: '2025-07-05T00:00:00Z',
  virtual_account_id: ids.account,
};

const paymentKey = { externalId: 'order-1234' };
const enrollmentKey = { deviceId: ids.device, participantId: ids.participant };
const keyWrongs = { deviceId: notUuid, participantId: notUuid };
const paymentKeyWrongs = {
  externalId: fc.oneof(
    bad(fc.constantFrom('order 1', 'order/1', 'pedido#1', 'ação', 'a\u0000b'), /letters, digits/),
    tooLong(200),
    empty,
  ),
};

export const schedulesConfig = (idPrefix: string): SchedulesConfig => ({
  idPrefix,
  timeZone: 'UTC',
  cron: { attemptsSync: '0 * * * *', metrics: '0 1 * * *', reports: '0 2 * * *' },
});

const scheduleId = { id: 'refund-report' };
const scheduleIdWrongs = {
  id: fc.oneof(
    bad(fc.constant(''), /is required/),
    bad(
      text(30).filter((id) => !(Object.values(jobIds) as string[]).includes(id)),
      /no declared schedule/,
    ),
  ),
};

/** Every starter function that takes merchant input, with a valid input and ways to get it wrong. */
export function starterCases(ctx: Contexts): StarterCase[] {
  const c = ctx.starter;
  // Inputs are deliberately wrong, so they reach the starter untyped.
  return [
    {
      name: 'cancelBoleto',
      valid: { boletoId: ids.enrollment },
      optional: [],
      wrong: { boletoId: notUuid },
      call: (i) => starter.cancelBoleto(c, i as never),
    },
    {
      name: 'findOrCreateDevice',
      valid: {
        fingerprint: 'fp-1',
        counterparty_tax_number: '12345678909',
        counterparty_name: 'Maria',
        os: 'iOS',
        os_version: '17.4',
        language: 'pt-BR',
        screen_width: 390,
        screen_height: 844,
        account_tenure: '2019-03-01',
        timezone_offset: '-03:00',
        load_enrollments: true,
      },
      optional: [
        'counterparty_name',
        'os',
        'os_version',
        'language',
        'screen_width',
        'screen_height',
        'account_tenure',
        'timezone_offset',
        'load_enrollments',
      ],
      wrong: {
        fingerprint: empty,
        counterparty_tax_number: digitsOtherThan([11, 14], /CPF|CNPJ/),
        counterparty_name: empty,
        screen_width: notPositiveInt,
        screen_height: notPositiveInt,
        account_tenure: notDate,
        timezone_offset: bad(fc.constantFrom('UTC', '+3:00', '-0300', '03:00', '+03:00:00'), /HH:MM/),
      },
      call: (i) => starter.findOrCreateDevice(ctx.bank, i as never),
    },
    {
      name: 'listParticipants',
      valid: { deviceId: ids.device },
      optional: ['deviceId'],
      wrong: { deviceId: notUuid },
      call: (i) => starter.listParticipants(ctx.bank, i as never),
    },
    {
      name: 'startEnrollment',
      valid: {
        ...enrollmentKey,
        returnToUrl: 'https://merchant.example/enrolled',
        externalId: 'enrollment-1',
        suggestedAccount: { ispb: '18236120', issuer: '0001', number: '1234567', account_type: 'checking' },
      },
      optional: ['externalId', 'suggestedAccount', 'suggestedAccount.account_type'],
      wrong: {
        ...keyWrongs,
        returnToUrl: bad(
          fc.constantFrom(
            'merchant.example/back',
            'ftp://merchant.example/x',
            'javascript:alert(1)',
            '',
            '/relative',
          ),
          /http\(s\) URL/,
        ),
        externalId: fc.oneof(empty, tooLong(200)),
        'suggestedAccount.ispb': digitsOtherThan([8], /8 digits/),
        'suggestedAccount.issuer': empty,
        'suggestedAccount.number': empty,
        'suggestedAccount.account_type': outside(['checking', 'payment', 'salary', 'savings']),
      },
      call: (i) => starter.startEnrollment(c, i as never),
    },
    {
      name: 'getRegistrationOptions',
      valid: enrollmentKey,
      optional: [],
      wrong: keyWrongs,
      call: (i) => starter.getRegistrationOptions(c, i as never),
    },
    {
      name: 'registerCredential',
      valid: { ...enrollmentKey, assertion: registerAssertion },
      optional: [],
      wrong: { ...keyWrongs, ...assertionWrongs('assertion', ['attestation_object', 'client_data_JSON']) },
      call: (i) => starter.registerCredential(c, i as never),
    },
    {
      name: 'getEnrollment',
      valid: enrollmentKey,
      optional: [],
      wrong: keyWrongs,
      call: (i) => starter.getEnrollment(c, i as never),
    },
    {
      name: 'waitForEnrollment',
      valid: enrollmentKey,
      optional: [],
      wrong: keyWrongs,
      call: (i) => starter.waitForEnrollment(c, i as never),
    },
    {
      name: 'startPayment',
      valid: {
        ...paymentKey,
        enrollmentId: ids.enrollment,
        deviceId: ids.device,
        amountCents: 1_050,
        description: 'Pedido 1234',
        entityId: ids.entity,
        virtualAccountId: ids.account,
      },
      optional: ['externalId'],
      wrong: {
        ...paymentKeyWrongs,
        enrollmentId: notUuid,
        deviceId: notUuid,
        entityId: notUuid,
        virtualAccountId: notUuid,
        amountCents: fc.oneof(
          bad(fc.integer({ max: 0 }), /more than zero/),
          bad(
            fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
            /whole number of cents/,
          ),
        ),
        description: fc.oneof(empty, tooLong(140, /140 characters/)),
      },
      call: (i) => starter.startPayment(c, i as never),
    },
    {
      name: 'getAuthorizationOptions',
      valid: paymentKey,
      optional: [],
      wrong: paymentKeyWrongs,
      call: (i) => starter.getAuthorizationOptions(c, i as never),
    },
    {
      name: 'authorizePayment',
      valid: { ...paymentKey, assertion: authorizeAssertion },
      optional: [],
      wrong: {
        ...paymentKeyWrongs,
        ...assertionWrongs('assertion', ['authenticator_data', 'client_data_JSON', 'signature']),
        'assertion.response.user_handle': bad(fc.constantFrom('a b', 'abc+/', 'é')),
      },
      call: (i) => starter.authorizePayment(c, i as never),
    },
    {
      name: 'getPayment',
      valid: paymentKey,
      optional: [],
      wrong: paymentKeyWrongs,
      call: (i) => starter.getPayment(c, i as never),
    },
    {
      name: 'waitForPaymentResult',
      valid: paymentKey,
      optional: [],
      wrong: paymentKeyWrongs,
      call: (i) => starter.waitForPaymentResult(c, i as never),
    },
    {
      name: 'startRecurrence',
      valid: recurrenceRequest,
      optional: [
        'amounts',
        'contract_number',
        'counterparty.bank_account.digit',
        'description',
        'first_payment',
        'first_payment.dict_key',
        'first_payment.due_detail',
        'first_payment.due_detail.discount_amounts',
        'first_payment.due_detail.discount_dates',
        'first_payment.due_detail.fine',
        'first_payment.due_detail.interest',
        'options',
        'options.automatic_schedule',
        'options.qrcode_expiration_seconds',
        'options.retry_policy',
      ],
      wrong: {
        'amounts.minimum': notPositiveInt,
        contract_number: fc.oneof(empty, tooLong(35)),
        'counterparty.name': fc.oneof(bad(fc.constantFrom('', '   ')), tooLong(140)),
        'counterparty.tax_number': digitsOtherThan([11, 14], /CPF|CNPJ/),
        'counterparty.bank_account.ispb': digitsOtherThan([8], /8 digits/),
        'counterparty.bank_account.branch': bad(fc.constantFrom('', '1234567', '12a'), /1 to 6 digits/),
        'counterparty.bank_account.number': bad(fc.constantFrom('', '1'.repeat(21), 'abc'), /1 to 20 digits/),
        'counterparty.bank_account.digit': bad(fc.constantFrom('', '12', '-'), /one letter or digit/),
        description: tooLong(140),
        external_id: fc.oneof(empty, tooLong(100)),
        'first_payment.amount': notPositiveInt,
        'first_payment.dict_key': fc.oneof(empty, tooLong(77)),
        'first_payment.due_detail.due_date': notDate,
        'first_payment.due_detail.fine': bad(fc.double({ max: -0.01, noNaN: true, noDefaultInfinity: true })),
        'first_payment.due_detail.discount_dates': bad(
          fc.constant(['2025-07-01', '2025-07-02']),
          /one date per entry/,
        ),
        'options.qrcode_expiration_seconds': notPositiveInt,
        'options.retry_policy': outside(['none', '3r_7d']),
        periodicity: outside(['week', 'mnth', 'qurt', 'mian', 'year']),
        start_date: notDateTime,
        virtual_account_id: notUuid,
      },
      call: (i) => starter.startRecurrence(c, i as never),
    },
    {
      name: 'getRecurrence',
      valid: { externalId: 'fuzz-recurrence-1' },
      optional: [],
      wrong: { externalId: fc.oneof(empty, tooLong(100)) },
      call: (i) => starter.getRecurrence(c, i as never),
    },
    {
      name: 'cancelRecurrence',
      valid: {
        externalId: 'fuzz-recurrence-1',
        reason: 'customer ended the contract',
        requestId: 'cancel-1',
      },
      optional: ['requestId'],
      wrong: {
        externalId: fc.oneof(empty, tooLong(100)),
        reason: fc.oneof(bad(fc.constantFrom('', '   '), /non-empty/), tooLong(500)),
        requestId: fc.oneof(empty, tooLong(200)),
      },
      call: (i) => starter.cancelRecurrence(c, i as never),
    },
    {
      name: 'runAttemptsSync',
      valid: { from: '2025-06-01T00:00:00Z', to: '2025-06-02T00:00:00Z', pageSize: 50, pagesPerRun: 5 },
      optional: ['pageSize', 'pagesPerRun'],
      wrong: {
        from: notDateTime,
        to: fc.oneof(
          notDateTime,
          bad(fc.constantFrom('2025-06-01T00:00:00Z', '2025-05-31T23:59:59Z'), /later than from/),
        ),
        pageSize: bad(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 }), fc.constant(2.5))),
        pagesPerRun: notPositiveInt,
      },
      call: (i) => starter.runAttemptsSync(c, i as never),
    },
    {
      name: 'describeSchedule',
      valid: scheduleId,
      optional: [],
      wrong: scheduleIdWrongs,
      call: (i) => starter.describeSchedule(ctx.schedules, i as never),
    },
    {
      name: 'triggerSchedule',
      valid: scheduleId,
      optional: [],
      wrong: scheduleIdWrongs,
      call: (i) => starter.triggerSchedule(ctx.schedules, i as never),
    },
    {
      name: 'pauseSchedule',
      valid: { ...scheduleId, note: 'maintenance' },
      optional: ['note'],
      wrong: { ...scheduleIdWrongs, note: fc.oneof(empty, tooLong(500)) },
      call: (i) => starter.pauseSchedule(ctx.schedules, i as never),
    },
    {
      name: 'unpauseSchedule',
      valid: { ...scheduleId, note: 'back' },
      optional: ['note'],
      wrong: { ...scheduleIdWrongs, note: fc.oneof(empty, tooLong(500)) },
      call: (i) => starter.unpauseSchedule(ctx.schedules, i as never),
    },
    {
      name: 'backfillSchedule',
      valid: { ...scheduleId, from: '2025-01-01T00:00:00Z', to: '2025-01-02T00:00:00Z' },
      optional: [],
      wrong: {
        ...scheduleIdWrongs,
        from: notDateTime,
        to: fc.oneof(
          notDateTime,
          bad(fc.constantFrom('2025-01-01T00:00:00Z', '2024-12-31T00:00:00Z'), /later than from/),
          bad(
            fc
              .integer({ min: 1, max: 3_650 })
              .map((days) => new Date(Date.now() + days * 86_400_000).toISOString()),
            /future/,
          ),
        ),
      },
      call: (i) => starter.backfillSchedule(ctx.schedules, i as never),
    },
  ];
}
