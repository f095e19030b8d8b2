import type { Activities } from '../../activities/index.js';
import {
  boundedBy,
  customerWriteOptions,
  interactiveActivities,
  journeyReadOptions,
  pollActivities,
} from '../activity-options.js';

export type BankWrites = Pick<
  Activities,
  'createEnrollment' | 'getRegistrationOptions' | 'registerCredential'
>;

/**
 * The bank's writes an enrollment journey makes, given up once `deadline` (workflow time) passes: the end of
 * the step the customer is in. The create carries the external id that makes a retry safe.
 */
export const boundedWrites = (deadline: number) =>
  interactiveActivities<keyof BankWrites>(boundedBy(customerWriteOptions, deadline, Date.now()));

/**
 * The bank's reads, the enrollment's polls (on the poll budget), retried briefly: a read that waits minutes
 * would keep the journey from its next hint.
 */
export const bankReads = pollActivities<'listEnrollments'>(journeyReadOptions);
