import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { bankCallOptions, bankReadOptions } from '../activity-options.js';
import type { PaymentInput } from './definitions.js';

/** The bank's writes a payment journey makes: each carries what makes a retry safe (external id, one payment). */
export const bank =
  proxyActivities<
    Pick<
      Activities,
      'createBiometricPayment' | 'getPaymentAuthorizationOptions' | 'authorizeBiometricPayment'
    >
  >(bankCallOptions);

/** The payment the bank is asked to create; its external id makes a retried create answer the same payment. */
export const createRequest = (input: PaymentInput) => ({
  entity_id: input.entityId,
  virtual_account_id: input.virtualAccountId,
  amount: input.amountCents,
  description: input.description,
  external_id: input.externalId,
});

/** The bank's reads, retried briefly: a read that waits minutes would keep the journey from its next hint. */
export const bankReads =
  proxyActivities<Pick<Activities, 'listEnrollments' | 'getBiometricPayment'>>(bankReadOptions);

/** Temporal's own records: the cash-in events the receiver kept as unmatched. */
export const temporal = proxyActivities<Pick<Activities, 'claimUnmatchedCashIns'>>(bankCallOptions);

/** Workflow time, as the evidence notes it. */
export const now = () => new Date().toISOString();
