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
} as const;
