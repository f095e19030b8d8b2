import { searchAttributes } from '../search-attributes.js';
import type { JourneyPresentation } from '../shared/journey-steps.js';
import { memoKeys } from '../shared/published-memo.js';
import type { KeywordValue } from '../shared/search-attributes-publisher.js';
import type { EnrollmentJourney, EnrollmentState } from './definitions.js';
import { enrollmentResult, hasOutcome } from './machine.js';

/** The search attributes support staff find an enrollment by. */
export const enrollmentSearchAttributes = (state: EnrollmentState): KeywordValue[] => [
  { key: searchAttributes.status, value: state.phase },
  ...(state.enrollmentId ? [{ key: searchAttributes.enrollmentId, value: state.enrollmentId }] : []),
];

function waitingFor(state: EnrollmentState): string {
  switch (state.phase) {
    case 'creating':
      return 'the bank to create the enrollment';
    case 'awaiting_account_holder_validation':
      return 'the account holder to authorize at the bank';
    case 'awaiting_enrollment':
      return 'the biometric credential registration';
    default:
      return 'the bank to confirm';
  }
}

/** The enrollment's current details in the Temporal UI, by paragraph. */
export const enrollmentDetails = (state: EnrollmentState): string[] => [
  `**Enrollment** ${state.enrollmentId ?? '(not created yet)'} — **${state.phase}**`,
  `Device ${state.deviceId}, participant ${state.participantId}`,
  state.reason ? `Outcome: ${state.reason}` : `Waiting for: ${waitingFor(state)}`,
  `Webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored), polls: ${state.polls}`,
];

/** What an enrollment publishes: its state and, once there is one, its outcome in the memo; its status; details. */
export const enrollmentPresentation: JourneyPresentation<EnrollmentJourney> = {
  memoEntries: (journey) => [
    { key: memoKeys.state, value: journey.state },
    { key: memoKeys.outcome, value: hasOutcome(journey) ? enrollmentResult(journey) : undefined },
  ],
  searchAttributes: ({ state }) => enrollmentSearchAttributes(state),
  details: ({ state }) => enrollmentDetails(state),
};
