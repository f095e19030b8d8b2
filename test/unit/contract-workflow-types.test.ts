import { attemptsSyncWorkflowType } from '../../src/contract/attempts-sync.js';
import { cancelBoletoWorkflowType } from '../../src/contract/boleto-cancel.js';
import { cashInHolderWorkflowType } from '../../src/contract/cash-in-holder.js';
import { enrollmentWorkflowType } from '../../src/contract/enrollment.js';
import { jobWorkflowTypes } from '../../src/contract/jobs.js';
import { paymentWorkflowType } from '../../src/contract/payment.js';
import { recurrenceWorkflowType } from '../../src/contract/recurrence.js';
import { unmatchedWebhookWorkflowType } from '../../src/contract/unmatched-webhook.js';
import { longLivedWorkflowTypes } from '../../src/contract/temporal.js';
import * as workflows from '../../src/workflows/index.js';

describe('the workflow types callers start by name', () => {
  it('are the types the worker registers', () => {
    const named = [
      attemptsSyncWorkflowType,
      cancelBoletoWorkflowType,
      cashInHolderWorkflowType,
      enrollmentWorkflowType,
      paymentWorkflowType,
      recurrenceWorkflowType,
      unmatchedWebhookWorkflowType,
      ...Object.values(jobWorkflowTypes),
    ];
    expect(Object.keys(workflows)).toEqual(expect.arrayContaining(named));
  });

  it('name every long-lived type `bankflow deployments move` signals among them', () => {
    expect(Object.keys(workflows)).toEqual(expect.arrayContaining([...longLivedWorkflowTypes]));
  });
});
