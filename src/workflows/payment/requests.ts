import { setHandler } from '@temporalio/workflow';
import { refusal, requireAssertion } from '../shared/merchant-requests.js';
import {
  authorizationOptionsUpdate,
  authorizeUpdate,
  type AuthorizeRequest,
  paymentCreatedUpdate,
  paymentWebhookSignal,
} from './definitions.js';
import type { PaymentSteps } from './steps.js';

/** What a payment workflow answers while it runs: the merchant's updates and the receiver's webhooks. */
export function installPaymentHandlers(payment: PaymentSteps): void {
  const checkOptions = () => payment.authorization.checkConsentOpen('authorization options');
  const checkAuthorization = (request: AuthorizeRequest) => {
    requireAssertion(request);
    payment.authorization.checkConsentOpen('an authorization');
    if (payment.authorization.authorizing)
      throw refusal('an authorization is already in progress for this payment');
  };

  setHandler(paymentWebhookSignal, (event) => payment.receive(event));
  payment.answerStarts(paymentCreatedUpdate);
  setHandler(authorizationOptionsUpdate, () => payment.authorization.options(), { validator: checkOptions });
  setHandler(
    authorizeUpdate,
    (request: AuthorizeRequest) => payment.authorization.authorize(request.assertion),
    {
      validator: checkAuthorization,
    },
  );
}
