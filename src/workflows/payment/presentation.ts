import { troubleDetail } from '../../contract/bank-trouble.js';
import { memoKeys } from '../../contract/memo.js';
import type { PaymentInput, PaymentJourney } from '../../contract/payment.js';
import { bankTroubleValue, searchAttributes } from '../../contract/search-attributes.js';
import { formatReais } from '../../money.js';
import type { JourneyPresentation } from '../shared/journey-publication.js';

/** What a payment publishes: its state in the memo, its status and ids as search attributes, its details. */
export const presentation = (input: PaymentInput): JourneyPresentation<PaymentJourney> => ({
  memoEntries: ({ state }) => [{ key: memoKeys.state, value: state }],
  searchAttributes: ({ state }) => [
    { key: searchAttributes.status, value: state.phase },
    ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
    ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
    { key: searchAttributes.bankTrouble, value: bankTroubleValue(state) },
  ],
  details: ({ state }) => [
    `**Pix ${formatReais(input.amountCents)}** — **${state.phase}**${state.unknownStatus ? ` (the bank shows ${state.unknownStatus})` : ''}`,
    ...(state.bankTrouble ? [troubleDetail(state.bankTrouble)] : []),
    `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${input.enrollmentId}`,
    state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
    state.reason
      ? `Outcome: ${state.reason}`
      : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
    `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
  ],
});
