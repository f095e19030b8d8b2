import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { z } from 'zod';
import type { Boleto } from '../bank/schemas/boleto.js';
import { uuid } from '../bank/schemas/common.js';
import { cancelBoletoWorkflowType, type CancelBoletoWorkflow } from '../contract/boleto-cancel.js';
import { workflowIds } from '../contract/ids.js';
import { searchAttributes } from '../contract/temporal.js';
import type { StarterContext } from './context.js';
import { parseInput } from './errors.js';

export const cancelBoletoInput = z.object({
  boletoId: uuid.describe('the boleto id at the bank'),
});

/**
 * Cancels a boleto through `cancelBoletoWorkflow` and waits for the bank's answer. Asking twice while the
 * first cancellation is still running joins it instead of starting a second one.
 */
export async function cancelBoleto(ctx: StarterContext, input: { boletoId: string }): Promise<Boleto> {
  const { boletoId } = parseInput(cancelBoletoInput, input);
  const handle = await ctx.client.workflow.start<CancelBoletoWorkflow>(cancelBoletoWorkflowType, {
    workflowId: workflowIds.boletoCancel(boletoId),
    taskQueue: ctx.taskQueue,
    args: [{ boletoId }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    staticSummary: `Cancel boleto ${boletoId}`,
    typedSearchAttributes: [
      { key: searchAttributes.kind, value: 'boleto-cancel' },
      { key: searchAttributes.boletoId, value: boletoId },
    ],
  });
  return handle.result();
}
