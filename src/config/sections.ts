import { apiVariables } from './api.js';
import { bankVariables } from './bank.js';
import { codecVariables } from './codec.js';
import type { Parsed } from './fields.js';
import { generalVariables } from './general.js';
import { jobVariables } from './jobs.js';
import { notificationVariables } from './notifications.js';
import { reportStoreVariables } from './report-store.js';
import { supportVariables } from './support.js';
import { temporalConnectionVariables } from './temporal-connection.js';
import { temporalToolsVariables } from './temporal-tools.js';
import { tracingVariables } from './tracing.js';
import { webhookVariables } from './webhooks.js';
import { workerVariables } from './worker.js';

/** bankflow's own settings, section by section, in the order docs/configuration.md lists them. */
export const configSections = [
  { title: 'General', variables: generalVariables },
  { title: "Temporal connection: bankflow's own", variables: temporalConnectionVariables },
  { title: 'Temporal payloads, CLI and UI', variables: temporalToolsVariables },
  { title: 'Worker', variables: workerVariables },
  { title: 'Bank', variables: bankVariables },
  { title: 'Webhook receiver', variables: webhookVariables },
  { title: 'Codec server', variables: codecVariables },
  { title: 'Merchant HTTP API', variables: apiVariables },
  { title: 'Merchant notifications', variables: notificationVariables },
  { title: 'Scheduled jobs', variables: jobVariables },
  { title: 'Report store', variables: reportStoreVariables },
  { title: 'Traces (OpenTelemetry)', variables: tracingVariables },
  { title: 'Support', variables: supportVariables },
] as const;

export const productVariables = {
  ...generalVariables,
  ...temporalConnectionVariables,
  ...temporalToolsVariables,
  ...workerVariables,
  ...bankVariables,
  ...webhookVariables,
  ...codecVariables,
  ...apiVariables,
  ...notificationVariables,
  ...jobVariables,
  ...reportStoreVariables,
  ...tracingVariables,
  ...supportVariables,
};

/** Every product variable as parsed. */
export type Env = Parsed<typeof productVariables>;
