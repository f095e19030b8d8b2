import type { Logger } from 'pino';
import type { BankConfig } from '../config.js';
import { BankHttp } from './http.js';
import { boletoSchema, type Boleto } from './schemas/boleto.js';
import { single } from './schemas/common.js';

const segment = (value: string) => encodeURIComponent(value);

/** One typed method per Banking API endpoint. Every failure is a BankError (see errors.ts). */
export class BankClient {
  private readonly http: BankHttp;

  constructor(config: BankConfig & { baseUrl: string }, logger: Logger) {
    this.http = new BankHttp(config, logger.child({ component: 'bank-client' }));
  }

  /** PUT /banking/cashin/boletos/{id}/cancel */
  async cancelBoleto(boletoId: string): Promise<Boleto> {
    const response = await this.http.request({
      operation: 'cancelBoleto',
      method: 'PUT',
      path: `/banking/cashin/boletos/${segment(boletoId)}/cancel`,
      schema: single(boletoSchema),
    });
    return response.data;
  }
}
