import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuthorizationResult, AuthorizeRequest, PaymentCreated } from './payment.js';
import type { StartTerms } from './start-terms.js';
import type { ReceivedWebhook } from './webhook-events.js';

/**
 * Starts the payment and answers once it exists at the bank, with its authorization options. Sent with the
 * workflow's start (update-with-start) by every start under the external id: a repeated start with the same
 * terms joins the running workflow and gets the same answer, one with other terms is refused by the
 * validator.
 */
export const paymentCreatedUpdate = defineUpdate<PaymentCreated, [StartTerms]>('paymentCreated');
/** Fresh authorization options, e.g. after the customer reloaded the page; refused once the window closed. */
export const authorizationOptionsUpdate = defineUpdate<string>('authorizationOptions');
/** Submits the FIDO assertion; answers the new status, or the bank's reason for refusing it. */
export const authorizeUpdate = defineUpdate<AuthorizationResult, [AuthorizeRequest]>('authorize');
/** `initiation_document` and Pix cash-in (`collecting_document`) webhooks, routed by the receiver. */
export const paymentWebhookSignal = defineSignal<[ReceivedWebhook]>('paymentWebhook');
