/**
 * The failure types bankflow's workflows end with or refuse a request with, beside the bank's own
 * (bank/errors.ts). Support staff read them in the UI; docs/support.md says what each means and what to do.
 */
export const failureTypes = {
  enrollmentNotAuthorized: 'EnrollmentNotAuthorized',
  paymentRefused: 'PaymentRefused',
  enrollmentRefused: 'EnrollmentRefused',
  recurrenceRefused: 'RecurrenceRefused',
  recurrenceNotGenerated: 'RecurrenceNotGenerated',
  boletoCancellationNotConfirmed: 'BoletoCancellationNotConfirmed',
  startTermsConflict: 'StartTermsConflict',
  requestRefused: 'RequestRefused',
  invalidJobWindow: 'InvalidJobWindow',
  plaintextRefused: 'PlaintextPayloadRefused',
  /**
   * The bank could not be reached within the window a customer waits in; nothing was created for the journey.
   */
  bankUnreachable: 'BankUnreachable',
  /** A bank call's attempt began after its window closed, so it was not sent (activities/failures.ts). */
  bankCallWindowClosed: 'BankCallWindowClosed',
} as const;
