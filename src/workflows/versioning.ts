import type { VersioningBehavior } from '@temporalio/common';
import { setWorkflowOptions } from '@temporalio/workflow';
import { apiIdempotencyWorkflow } from './api-idempotency.js';
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
 * Which Worker Deployment version runs each workflow type's runs (docs/upgrading-workflows.md). A pinned run
 * finishes on the version that started it, so a change to it needs no patch. An auto-upgrade run moves to the
 * current version at its next workflow task (so at its next continue-as-new at the latest): these types live
 * for days or weeks (a cash-in holder a day after its claim, an unmatched event its 30-day retention, a merchant API
 * Idempotency-Key its 24 hours), which
 * would keep an old version's workers up that long, and a change to one still ships behind `patched()`, which their bounded lifetime retires.
 */
export const versioningBehaviors = {
  biometricPaymentWorkflow: 'PINNED',
  cancelBoletoWorkflow: 'PINNED',
  syncRecurrenceAttempts: 'PINNED',
  syncAttemptsSlice: 'PINNED',
  refundReport: 'PINNED',
  transferReport: 'PINNED',
  metricsSnapshot: 'PINNED',
  merchantNotificationsWorkflow: 'PINNED',
  enrollmentWorkflow: 'AUTO_UPGRADE',
  recurrenceWorkflow: 'AUTO_UPGRADE',
  unmatchedWebhookWorkflow: 'AUTO_UPGRADE',
  cashInHolderWorkflow: 'AUTO_UPGRADE',
  apiIdempotencyWorkflow: 'AUTO_UPGRADE',
} as const satisfies Record<string, VersioningBehavior>;

const workflowTypes: Record<keyof typeof versioningBehaviors, (...args: never[]) => Promise<unknown>> = {
  biometricPaymentWorkflow,
  cancelBoletoWorkflow,
  unmatchedWebhookWorkflow,
  cashInHolderWorkflow,
  syncRecurrenceAttempts,
  syncAttemptsSlice,
  refundReport,
  transferReport,
  metricsSnapshot,
  merchantNotificationsWorkflow,
  enrollmentWorkflow,
  recurrenceWorkflow,
  apiIdempotencyWorkflow,
};

for (const [type, behavior] of Object.entries(versioningBehaviors)) {
  setWorkflowOptions(
    { versioningBehavior: behavior },
    workflowTypes[type as keyof typeof versioningBehaviors],
  );
}
