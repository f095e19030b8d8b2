import { uuid } from '../../src/bank/schemas/common.js';
import { biometricPaymentStatusSchema } from '../../src/bank/schemas/biometric-payment.js';
import * as starter from '../../src/starter/index.js';
import { startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

/** Rules of docs/decisions.md that no journey or contract test exercises on the way to something else. */
describe('decisions held by small rules', () => {
  let bank: DataSandbox;

  beforeAll(async () => {
    bank = await startDataSandbox();
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('reads ids by their 8-4-4-4-12 hex shape, whatever their RFC version bits', () => {
    for (const id of [
      '00000000-0000-0000-0000-000000000000',
      'a1b2c3d4-e5f6-1a2b-8c3d-4e5f6a7b8c9d',
      'A1B2C3D4-E5F6-7A2B-0C3D-4E5F6A7B8C9D',
    ]) {
      expect(uuid.safeParse(id).success).toBe(true);
    }
    for (const id of [
      'a1b2c3d4e5f61a2b8c3d4e5f6a7b8c9d',
      'a1b2c3d4-e5f6-1a2b-8c3d-4e5f6a7b8c9',
      'g1b2c3d4-e5f6-1a2b-8c3d-4e5f6a7b8c9d',
    ]) {
      expect(uuid.safeParse(id).success).toBe(false);
    }
  });

  it('serves the biometrics family under the summary table paths only, with no /banking/initiation alias', async () => {
    const device = { fingerprint: 'decision-rules', counterparty_tax_number: '12345678909' };
    const canonical = await bank.raw('/biometrics/devices', { method: 'POST', body: device });
    expect(canonical.statusCode).toBe(200);
    const alias = await bank.raw('/banking/initiation/biometrics/devices', { method: 'POST', body: device });
    expect(alias.statusCode).toBe(404);
    expect(alias.json().errors[0].title).toBe('NOT_FOUND');
  });

  it('accepts a payment status of pending, which only the examples show', () => {
    expect(biometricPaymentStatusSchema.parse('pending')).toBe('pending');
  });

  it('exports no tuned start from the starter, so the waiting knobs stay internal to bankflow', () => {
    expect(Object.keys(starter)).toEqual(expect.arrayContaining(['startPayment', 'startEnrollment']));
    expect(Object.keys(starter).filter((name) => /tuned/i.test(name))).toEqual([]);
  });
});
