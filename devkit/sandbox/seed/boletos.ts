import type { Boleto } from '../../../src/bank/schemas/boleto.js';
import type { SeededRandom } from './random.js';

const descriptions = [
  'Mensalidade escolar',
  'Plano de saúde',
  'Assinatura anual',
  'Conta de energia',
  'Aluguel',
];

function dayOffset(base: Date, days: number): Date {
  return new Date(base.getTime() + days * 86_400_000);
}

/**
 * A discount per working day paid before the due date, in cents: 0.1% of the amount (at least a cent).
 * Derived from the amount rather than drawn, so seeding it left every boleto's id and the other records'
 * draws as they were.
 */
function perDayDiscount(amount: number) {
  return {
    amount: Math.max(1, Math.round(amount * 0.001)),
    calculation_days: 'working',
    calculation_type: 'amount',
  };
}

/**
 * Boletos issued over the last months for the merchant's virtual accounts; all start `confirmed`. Each has a
 * discount fixed until five days before its due date; every second one (odd index) also a discount per day
 * paid early, so clients read both forms the spec gives, and boletos without the optional one.
 */
export function seedBoletos(
  random: SeededRandom,
  virtualAccountIds: string[],
  count: number,
  now: Date,
): Boleto[] {
  const boletos: Boleto[] = [];
  for (let index = 0; index < count; index++) {
    const issued = dayOffset(now, -random.int(1, 120));
    const due = dayOffset(issued, random.int(5, 30));
    const amount = random.int(1_000, 500_000);
    const barcode = `34191${random.digits(39)}`;
    const id = random.uuid();
    boletos.push({
      id,
      virtual_account_id: random.pick(virtualAccountIds),
      external_id: `boleto-${String(index + 1).padStart(5, '0')}`,
      amount,
      barcode,
      digitable_line: `${barcode.slice(0, 5)}.${barcode.slice(5, 10)} ${barcode.slice(10, 15)}.${barcode.slice(15, 21)} ${barcode.slice(21, 26)}.${barcode.slice(26, 32)} ${barcode.slice(32, 33)} ${barcode.slice(33)}`,
      boleto_url: `https://boletos.sandbox.bankflow.local/${id}`,
      description: random.pick(descriptions),
      invoice_type: 'deposit',
      wallet_type: 'registered',
      status: 'confirmed',
      issue_date: issued.toISOString(),
      expiration_date: dayOffset(due, 60).toISOString(),
      notes: ['Não receber após 60 dias do vencimento'],
      due_detail: {
        due_date: due.toISOString().slice(0, 10),
        fine: { amount: 2, calculation_type: 'percentage' },
        interest: { amount: 1, calculation_type: 'percentage' },
        discount: {
          fixed_until_due: {
            amounts: [
              { amount: Math.round(amount * 0.05), date: dayOffset(due, -5).toISOString().slice(0, 10) },
            ],
            calculation_type: 'amount',
          },
          ...(index % 2 === 1 ? { per_day_antecipated: perDayDiscount(amount) } : {}),
        },
      },
    });
  }
  return boletos;
}
