import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { Boleto } from '../bank/schemas/boleto.js';
import { bankCallOptions } from './activity-options.js';
import { searchAttributes } from './search-attributes.js';

const { cancelBoleto } = proxyActivities<Pick<Activities, 'cancelBoleto'>>(bankCallOptions);

export interface CancelBoletoInput {
  boletoId: string;
}

/**
 * Cancels one boleto at the bank. Transient bank failures are retried until the bank answers; a refusal
 * (bad credentials, unknown boleto) fails the workflow at once with the bank's reason.
 */
export async function cancelBoletoWorkflow({ boletoId }: CancelBoletoInput): Promise<Boleto> {
  const boleto = await cancelBoleto(boletoId);
  upsertSearchAttributes([{ key: searchAttributes.status, value: boleto.status }]);
  return boleto;
}
