import type { Boleto } from '../bank/schemas/boleto.js';

/** The boleto cancel's workflow type; its id is `workflowIds.boletoCancel(boletoId)`. */
export const cancelBoletoWorkflowType = 'cancelBoletoWorkflow';
export type CancelBoletoWorkflow = (input: CancelBoletoInput) => Promise<Boleto>;

export interface CancelBoletoInput {
  boletoId: string;
}
