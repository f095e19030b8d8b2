import type { BankClient } from '../bank/client.js';
import { bankActivity } from './failures.js';

export function createBoletoActivities(bank: BankClient) {
  return {
    cancelBoleto: bankActivity((boletoId: string) => bank.cancelBoleto(boletoId)),
  };
}
