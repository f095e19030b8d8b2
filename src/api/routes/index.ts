import { bankReadRoutes } from './bank-reads.js';
import { deviceRoutes } from './devices.js';
import { enrollmentRoutes } from './enrollments.js';
import { paymentRoutes } from './payments.js';
import { recurrenceRoutes } from './recurrences.js';

/** Every operation of the merchant API, in the order the OpenAPI document lists them. */
export const apiRoutes = [
  ...deviceRoutes,
  ...enrollmentRoutes,
  ...paymentRoutes,
  ...recurrenceRoutes,
  ...bankReadRoutes,
];
