import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { workflowIds } from '../src/contract/ids.js';
import {
  initialPaymentState,
  paymentWorkflowType,
  type PaymentInput,
  type PaymentJourney,
} from '../src/contract/payment.js';
import type { PollingSettings } from '../src/contract/journeys.js';

/**
 * A payment the bank holds in processing, started as the run a continue-as-new would hand it to: no WebAuthn
 * journey per payment. Its id is one the sandbox never created, so each poll is a full read at the bank that
 * answers 404, which the workflow takes as no news (a bank's reads lagging its writes) and polls on.
 */
function processingInput(processingSince: Date, polling?: PollingSettings): PaymentInput {
  const externalId = `open-${randomUUID()}`;
  const at = processingSince.toISOString();
  const input: PaymentInput = {
    externalId,
    enrollmentId: randomUUID(),
    deviceId: randomUUID(),
    amountCents: 1_000,
    description: 'Pagamento em processamento',
    entityId: randomUUID(),
    virtualAccountId: randomUUID(),
    ...(polling ? { polling } : {}),
  };
  const payment = {
    id: randomUUID(),
    amount: { amount: 1_000, currency: 'BRL' },
    description: input.description,
    external_id: externalId,
    end_to_end_id: null,
    status: 'awaiting_payment' as const,
    transaction_date: null,
    virtual_account_id: input.virtualAccountId,
    inserted_at: at,
    updated_at: at,
  };
  const journey: PaymentJourney = {
    state: { ...initialPaymentState(input), phase: 'awaiting_payment', paymentId: payment.id },
    payment,
    authorizedAtBank: true,
    cashIns: [],
    processingSince: at,
  };
  return { ...input, resume: { journey, replies: {} } };
}

/**
 * Starts `count` payments in processing since `processingSince`, 50 at a time, or `perSecond` a second (one
 * second's worth at a time) when given; answers their workflow ids.
 */
export async function startOpenPayments(
  client: Client,
  taskQueue: string,
  options: { count: number; processingSince: Date; polling?: PollingSettings; perSecond?: number },
): Promise<string[]> {
  const ids: string[] = [];
  const batch = options.perSecond === undefined ? 50 : Math.max(1, Math.floor(options.perSecond));
  const began = Date.now();
  for (let first = 0; first < options.count; first += batch) {
    const due =
      options.perSecond === undefined ? 0 : began + (first * 1_000) / options.perSecond - Date.now();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    const inputs = Array.from({ length: Math.min(batch, options.count - first) }, () =>
      processingInput(options.processingSince, options.polling),
    );
    await Promise.all(
      inputs.map(async (input) => {
        const workflowId = workflowIds.payment(input.externalId);
        await client.workflow.start(paymentWorkflowType, { workflowId, taskQueue, args: [input] });
        ids.push(workflowId);
      }),
    );
  }
  return ids;
}
