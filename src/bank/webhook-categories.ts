/**
 * The webhook categories bankflow consumes; a module of its own so workflow code can name them without zod.
 */
export const webhookCategories = {
  enrollment: 'pix_biometrics_enrollment',
  initiationDocument: 'initiation_document',
  collectingDocument: 'collecting_document',
  recurrenceCollectionAttempt: 'recurrence_collection_attempt',
} as const;
