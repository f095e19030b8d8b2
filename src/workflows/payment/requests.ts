import { setHandler } from '@temporalio/workflow';
import { answerLegacyRequest, legacyRequest } from '../shared/legacy-request-signals.js';
import { refusal, requireAssertion } from '../shared/merchant-requests.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import {
  authorizationOptionsUpdate,
  authorizeUpdate,
  type AuthorizeRequest,
  paymentCreatedUpdate,
  paymentStateQuery,
  paymentWebhookSignal,
} from './definitions.js';
import type { PaymentSteps } from './steps.js';

/** The merchant's requests as payment workflows recorded before updates took them (legacy-request-signals.ts). */
const legacyOptionsRequest = legacyRequest('authorizationOptionsRequested');
const legacyAuthorizationRequest = legacyRequest<{ assertion: AuthorizeFidoAssertion }>('assertionSubmitted');

/** What a payment workflow answers while it runs: the merchant's updates, the receiver's webhooks, a legacy query. */
export function installPaymentHandlers(payment: PaymentSteps): void {
  const checkOptions = () => payment.authorization.checkConsentOpen('authorization options');
  const checkAuthorization = (request: AuthorizeRequest) => {
    requireAssertion(request);
    payment.authorization.checkConsentOpen('an authorization');
    if (payment.authorization.authorizing)
      throw refusal('an authorization is already in progress for this payment');
  };

  setHandler(paymentStateQuery, () => payment.journey.state);
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
  answerLegacyRequest(payment.replies, legacyOptionsRequest, checkOptions, () =>
    payment.authorization.options(),
  );
  answerLegacyRequest(payment.replies, legacyAuthorizationRequest, checkAuthorization, ({ assertion }) =>
    payment.authorization.authorize(assertion),
  );
}
