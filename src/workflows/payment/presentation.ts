import { formatReais } from '../../money.js';
import { searchAttributes } from '../search-attributes.js';
import type { JourneyPresentation } from '../shared/journey-steps.js';
import { memoKeys } from '../shared/published-memo.js';
import type { KeywordValue } from '../shared/search-attributes-publisher.js';
import type { PaymentInput, PaymentJourney, PaymentState } from './definitions.js';

/** The search attributes support staff find a payment by. */
export const paymentSearchAttributes = (state: PaymentState): KeywordValue[] => [
  { key: searchAttributes.status, value: state.phase },
  ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
  ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
];

/** The payment's current details in the Temporal UI, by paragraph. */
export const paymentDetails = (state: PaymentState, input: PaymentInput): string[] => [
  `**Pix ${formatReais(input.amountCents)}** — **${state.phase}**`,
  `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${input.enrollmentId}`,
  state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
  state.reason
    ? `Outcome: ${state.reason}`
    : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
  `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
];

/** What a payment publishes: its state in the memo, its status and ids as search attributes, its details. */
export const paymentPresentation = (input: PaymentInput): JourneyPresentation<PaymentJourney> => ({
  memoEntries: ({ state }) => [{ key: memoKeys.state, value: state }],
  searchAttributes: ({ state }) => paymentSearchAttributes(state),
  details: ({ state }) => paymentDetails(state, input),
});
