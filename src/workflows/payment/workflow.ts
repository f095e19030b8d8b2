import type { PaymentInput, PaymentResult } from './definitions.js';
import { PaymentSteps } from './steps.js';

/**
 * A Pix payment authorized with a FIDO assertion, steps 7-10 of the bank's biometric flow: check the enrollment,
 * create the payment and hand its authorization options to the merchant at once, take the customer's assertion
 * (retryable until the consent window closes), then follow the bank until its own record shows the payment final —
 * and, for a settlement, hear the Pix cash-in event for the same end-to-end id. Webhooks only make the workflow ask
 * the bank sooner; a run continued as new picks the story up at the following step.
 */
export async function biometricPaymentWorkflow(input: PaymentInput): Promise<PaymentResult> {
  const payment = new PaymentSteps(input);
  if (!input.resume) {
    await payment.checkEnrollment();
    await payment.createPayment();
    await payment.waitForConsent();
  }
  await payment.followUntilFinal();
  await payment.awaitCashIn();
  return payment.finish();
}
