export { cancelBoletoWorkflow } from './boleto-cancel.js';
export { unmatchedWebhookWorkflow } from './unmatched-webhook.js';
export { cashInHolderWorkflow } from './cash-in-holder.js';
export { enrollmentWorkflow } from './enrollment/workflow.js';
export { biometricPaymentWorkflow } from './payment/workflow.js';
export { recurrenceWorkflow } from './recurrence/workflow.js';
export { syncRecurrenceAttempts } from './sync/attempts-workflow.js';
export { syncAttemptsSlice } from './sync/attempts-slice-workflow.js';
export { refundReport } from './jobs/refund-report.js';
export { transferReport } from './jobs/transfer-report.js';
export { metricsSnapshot } from './jobs/metrics-snapshot.js';
export { merchantNotificationsWorkflow } from './notifications/workflow.js';

// Each type's Worker Deployment versioning behavior, set on the functions above.
import './versioning.js';
