import { setWorkflowOptions } from '@temporalio/workflow';
import { cancelBoletoWorkflow } from './boleto-cancel.js';
import { cashInHolderWorkflow } from './cash-in-holder.js';
import { enrollmentWorkflow } from './enrollment/workflow.js';
import { refundReport } from './jobs/refund-report.js';
import { transferReport } from './jobs/transfer-report.js';
import { metricsSnapshot } from './jobs/metrics-snapshot.js';
import { merchantNotificationsWorkflow } from './notifications/workflow.js';
import { biometricPaymentWorkflow } from './payment/workflow.js';
import { recurrenceWorkflow } from './recurrence/workflow.js';
import { syncAttemptsSlice } from './sync/attempts-slice-workflow.js';
import { syncRecurrenceAttempts } from './sync/attempts-workflow.js';
import { unmatchedWebhookWorkflow } from './unmatched-webhook.js';

/**
 * Every workflow type is pinned (docs/upgrading-workflows.md): a run's workflow tasks all run on the Worker
 * Deployment version its first task ran on, so no history is ever replayed by other code, and a change to a
 * workflow ships as a new version, never behind a patch. The short types' runs finish on their version. The
 * long-lived ones (enrollments, recurrences, unmatched events, cash-in holders, notification outboxes)
 * continue as new onto the deployment's current version at their first workflow task after it changed
 * (shared/journey-run.ts): at the latest within a day, at once when `bankflow deployments move` asks
 * them.
 */
const workflowTypes: ((...args: never[]) => Promise<unknown>)[] = [
  biometricPaymentWorkflow,
  cancelBoletoWorkflow,
  syncRecurrenceAttempts,
  syncAttemptsSlice,
  refundReport,
  transferReport,
  metricsSnapshot,
  enrollmentWorkflow,
  recurrenceWorkflow,
  unmatchedWebhookWorkflow,
  cashInHolderWorkflow,
  merchantNotificationsWorkflow,
];

for (const workflow of workflowTypes) setWorkflowOptions({ versioningBehavior: 'PINNED' }, workflow);
