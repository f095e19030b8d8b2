export { cancelBoleto } from './boletos.js';
export { connectBankReads, connectStarter } from './connect.js';
export type { StarterContext } from './context.js';
export { customerKey } from './customer-key.js';
export { findOrCreateDevice, listParticipants, type BankReadContext } from './devices.js';
export {
  getEnrollment,
  getRegistrationOptions,
  registerCredential,
  startEnrollment,
  waitForEnrollment,
  type StartedEnrollment,
  type StartEnrollmentInput,
} from './enrollments.js';
export { InvalidInputError } from './errors.js';
export {
  BankUnreachableError,
  RequestRefusedError,
  RequestTimedOutError,
  type RetryAdvice,
} from './merchant-requests.js';
export { NotificationSignatureError, verifyNotification } from './notifications.js';
export type { NotificationEvent, NotificationType } from '../contract/notifications.js';
export { StartTermsConflictError } from './start-terms.js';
export type { TermDifference } from '../contract/journeys.js';
export {
  authorizePayment,
  getAuthorizationOptions,
  getPayment,
  startPayment,
  waitForPaymentResult,
  type StartedPayment,
  type StartPaymentInput,
} from './payments.js';
export {
  cancelRecurrence,
  getRecurrence,
  runAttemptsSync,
  startRecurrence,
  type AttemptsSyncRequest,
  type StartedRecurrence,
} from './recurrences.js';
export {
  findCustomerWorkflows,
  listStuckJourneys,
  type StuckJourney,
  type SupportWorkflowRow,
} from './support-lookups.js';
export { stuckRules, supportQueries, type StuckRule } from './support-queries.js';
export { listUnmatchedWebhooks, resolveUnmatchedWebhook } from './unmatched-webhooks.js';
export {
  applySchedules,
  backfillSchedule,
  describeSchedule,
  listSchedules,
  pauseSchedule,
  triggerSchedule,
  unpauseSchedule,
  type AppliedSchedule,
  type Backfill,
  type ScheduleView,
  type SchedulesContext,
  type TriggeredRun,
} from './schedules.js';
