import { ApplicationFailure, proxyActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { Boleto } from '../bank/schemas/boleto.js';
import type { CancelBoletoInput } from '../contract/boleto-cancel.js';
import { failureTypes } from '../contract/journeys.js';
import { searchAttributes } from '../contract/temporal.js';
import { bankCallOptions } from './activity-options.js';
import { notifyBoletoCancelled } from './boleto-notifications.js';

const { cancelBoleto } = proxyActivities<Pick<Activities, 'cancelBoleto'>>(bankCallOptions);

/**
 * The status bankflow takes a cancelled boleto to have (the spec does not show it; see docs/decisions.md).
 */
const cancelledBoletoStatus = 'cancelled';

/** How long the workflow keeps asking while the bank's answer does not show the boleto cancelled. */
const cancellationConfirmationDeadlineMs = 30 * 60_000;
const firstAskAgainMs = 1_000;
const maxAskAgainMs = 60_000;

const confirms = (boleto: Boleto, boletoId: string) =>
  boleto.id === boletoId && boleto.status === cancelledBoletoStatus;

/**
 * Cancels one boleto at the bank. Transient bank failures are retried until the bank answers; a refusal (bad
 * credentials, unknown boleto) fails the workflow at once with the bank's reason. The workflow ends only on
 * an answer that shows this boleto cancelled: the cancel is the only read the spec gives of a boleto, and it
 * is idempotent, so while the answer shows another status the workflow asks again with backoff, and fails
 * with `BoletoCancellationNotConfirmed` if the deadline passes first. The merchant is told
 * (`boleto.cancelled`) only of the confirmed answer.
 */
export async function cancelBoletoWorkflow({ boletoId }: CancelBoletoInput): Promise<Boleto> {
  let boleto = await cancelBoleto(boletoId);
  const deadline = Date.now() + cancellationConfirmationDeadlineMs;
  for (
    let waitMs = firstAskAgainMs;
    !confirms(boleto, boletoId);
    waitMs = Math.min(2 * waitMs, maxAskAgainMs)
  ) {
    if (Date.now() + waitMs > deadline) {
      throw ApplicationFailure.create({
        type: failureTypes.boletoCancellationNotConfirmed,
        message: `the bank still answers boleto ${boleto.id} ${boleto.status}, not ${cancelledBoletoStatus}, after ${cancellationConfirmationDeadlineMs / 60_000} minutes`,
        details: [{ boletoId, answered: boleto }],
        nonRetryable: true,
      });
    }
    await sleep(waitMs);
    boleto = await cancelBoleto(boletoId);
  }
  upsertSearchAttributes([{ key: searchAttributes.status, value: boleto.status }]);
  await notifyBoletoCancelled(boleto);
  return boleto;
}
