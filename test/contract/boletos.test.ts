import { boletoSchema, type Boleto } from '../../src/bank/schemas/boleto.js';
import { startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

describe("a boleto's due details through BankClient and the sandbox bank", () => {
  let bank: DataSandbox;
  const seeded = () => [...bank.sandbox.state.boletos.values()];

  beforeAll(async () => {
    bank = await startDataSandbox();
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('seeds both discounts the spec lists: a fixed one on every boleto, one per day paid early on every second', () => {
    const boletos = seeded();
    expect(boletos).toHaveLength(120);
    boletos.forEach((boleto, index) => {
      expect(boleto.due_detail.discount?.fixed_until_due).toBeDefined();
      expect(boleto.due_detail.discount?.per_day_antecipated !== undefined).toBe(index % 2 === 1);
    });
  });

  it('reads the discount per day paid early when a boleto has it, and its absence when it has not', async () => {
    const [without, withDiscount] = seeded();
    const cancelled = await bank.bank.cancelBoleto(withDiscount!.id);
    const perDay = cancelled.due_detail.discount?.per_day_antecipated;
    expect(perDay).toEqual({
      amount: Math.max(1, Math.round(withDiscount!.amount * 0.001)),
      calculation_days: 'working',
      calculation_type: 'amount',
    });
    expect(perDay!.amount).toBeLessThan(withDiscount!.amount);
    const plain = await bank.bank.cancelBoleto(without!.id);
    expect(plain.due_detail.discount?.fixed_until_due).toBeDefined();
    expect(plain.due_detail.discount).not.toHaveProperty('per_day_antecipated');
  });

  it('refuses a discount per day that lacks a member or carries one of the wrong type, naming its path', () => {
    const boleto = seeded()[1]!;
    const withPerDay = (perDay: Record<string, unknown>): Boleto =>
      ({
        ...boleto,
        due_detail: {
          ...boleto.due_detail,
          discount: { ...boleto.due_detail.discount, per_day_antecipated: perDay },
        },
      }) as Boleto;
    const paths = (perDay: Record<string, unknown>) =>
      (boletoSchema.safeParse(withPerDay(perDay)).error?.issues ?? []).map((issue) => issue.path.join('.'));
    const prefix = 'due_detail.discount.per_day_antecipated';
    expect(paths({ amount: '0.1%', calculation_days: 'working', calculation_type: 'amount' })).toEqual([
      `${prefix}.amount`,
    ]);
    expect(paths({ amount: 10, calculation_type: 'amount' })).toEqual([`${prefix}.calculation_days`]);
    expect(paths({ amount: 10, calculation_days: 'working', calculation_type: 'amount' })).toEqual([]);
  });
});
