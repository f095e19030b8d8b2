export { cancelBoletoWorkflow } from './boleto-cancel.js';
export { unmatchedWebhookWorkflow } from './unmatched-webhook.js';
export { enrollmentWorkflow } from './enrollment/workflow.js';
export { biometricPaymentWorkflow } from './payment/workflow.js';
