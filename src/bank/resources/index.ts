import { listEndpointOf } from '../resource.js';
import { biometricPayments } from './biometric-payments.js';
import { boletos } from './boletos.js';
import { cards } from './cards.js';
import { collectionAttempts } from './collection-attempts.js';
import { devices } from './devices.js';
import { enrollments } from './enrollments.js';
import { metrics } from './metrics.js';
import { participants } from './participants.js';
import { recurrences } from './recurrences.js';
import { refunds } from './refunds.js';
import { transfers } from './transfers.js';

/**
 * Every Banking API endpoint bankflow calls, by the name of its BankClient method (and activity, where
 * workflows call it). Each resource module holds its endpoints' routes, schemas and requests.
 */
export const bankEndpoints = {
  ...devices,
  ...participants,
  ...enrollments,
  ...biometricPayments,
  ...recurrences,
  ...collectionAttempts,
  ...boletos,
  ...cards,
  ...refunds,
  ...transfers,
  ...metrics,
};

export type BankEndpoints = typeof bankEndpoints;

type CursorPagedName = {
  [Name in keyof BankEndpoints]: BankEndpoints[Name]['answers'] extends 'pages' ? Name : never;
}[keyof BankEndpoints];

/**
 * Where a list paged by cursors goes, for errors raised before or between its requests (a report's pages).
 */
export const listEndpoint = (name: CursorPagedName) => listEndpointOf(name, bankEndpoints[name]);
