import type { GenerateRecurrenceRequest } from '../../../src/bank/schemas/recurrence.js';

const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/**
 * The spec's generate-recurrence example, every optional member filled in, for one of the sandbox's virtual
 * accounts: what the tests, the benchmarks and the chaos run ask the bank for. The first payment is due on
 * `startDate` (YYYY-MM-DD), with a discount four days before.
 */
export function exampleRecurrenceRequest(options: {
  externalId: string;
  virtualAccountId: string;
  startDate?: string;
  amountCents?: number;
}): GenerateRecurrenceRequest {
  const startDate = options.startDate ?? '2025-07-05';
  const amount = options.amountCents ?? 4_990;
  return {
    amounts: { minimum: amount },
    contract_number: `CT-${options.externalId}`,
    counterparty: {
      name: 'Maria Souza',
      tax_number: '12345678901',
      bank_account: { branch: '0001', digit: '7', ispb: '18236120', number: '1234567' },
    },
    description: 'Plano mensal',
    external_id: options.externalId,
    first_payment: {
      amount,
      dict_key: 'maria@example.com',
      due_detail: {
        due_date: startDate,
        discount: 0,
        discount_amounts: [100],
        discount_dates: [daysBefore(startDate, 4)],
        discount_antecipation_type: 'per_day_antecipated',
        discount_calculation_days: 'working',
        discount_calculation_type: 'amount',
        fine: 2,
        fine_calculation_type: 'percentage',
        interest: 1,
        interest_calculation_days: 'calendar',
        interest_calculation_period: 'month',
        interest_calculation_type: 'amount',
        rebate: 0,
        rebate_calculation_type: 'percentage',
      },
    },
    options: {
      authorization_type: 'app',
      automatic_schedule: true,
      next_working_day: true,
      qrcode_expiration_seconds: 3_600,
      retry_policy: '3r_7d',
    },
    periodicity: 'mnth',
    start_date: `${startDate}T00:00:00Z`,
    virtual_account_id: options.virtualAccountId,
  };
}
