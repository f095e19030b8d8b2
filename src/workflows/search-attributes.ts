import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Every business id support staff can search by in the Temporal UI. The dev server registers these at start
 * (see temporal/dev-server.ts); on a self-hosted namespace `bankflow setup` registers them, and on Temporal Cloud
 * it names the tcld command that does.
 */
export const searchAttributes = {
  kind: defineSearchAttributeKey('BankflowKind', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('BankflowStatus', SearchAttributeType.KEYWORD),
  externalId: defineSearchAttributeKey('BankflowExternalId', SearchAttributeType.KEYWORD),
  deviceId: defineSearchAttributeKey('BankflowDeviceId', SearchAttributeType.KEYWORD),
  participantId: defineSearchAttributeKey('BankflowParticipantId', SearchAttributeType.KEYWORD),
  enrollmentId: defineSearchAttributeKey('BankflowEnrollmentId', SearchAttributeType.KEYWORD),
  paymentId: defineSearchAttributeKey('BankflowPaymentId', SearchAttributeType.KEYWORD),
  boletoId: defineSearchAttributeKey('BankflowBoletoId', SearchAttributeType.KEYWORD),
  endToEndId: defineSearchAttributeKey('BankflowEndToEndId', SearchAttributeType.KEYWORD),
  recurrenceId: defineSearchAttributeKey('BankflowRecurrenceId', SearchAttributeType.KEYWORD),
} as const;

export const allSearchAttributeKeys = Object.values(searchAttributes);
