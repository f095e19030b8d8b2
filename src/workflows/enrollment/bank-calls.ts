import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { bankCallOptions, bankReadOptions } from '../activity-options.js';

/** The bank's writes an enrollment journey makes; the create carries the external id that makes a retry safe. */
export const bank =
  proxyActivities<Pick<Activities, 'createEnrollment' | 'getRegistrationOptions' | 'registerCredential'>>(
    bankCallOptions,
  );

/** The bank's reads, retried briefly: a read that waits minutes would keep the journey from its next hint. */
export const bankReads = proxyActivities<Pick<Activities, 'listEnrollments'>>(bankReadOptions);
