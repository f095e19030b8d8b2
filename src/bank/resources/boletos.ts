import { endpoint } from '../resource.js';
import { boletoSchema } from '../schemas/boleto.js';

/** Boletos; the boleto cancel workflow cancels one. */
export const boletos = {
  /** PUT /banking/cashin/boletos/{id}/cancel */
  cancelBoleto: endpoint({
    method: 'PUT',
    route: '/banking/cashin/boletos/{boleto_id}/cancel',
    record: boletoSchema,
    answers: 'record',
    activity: true,
  }),
};
