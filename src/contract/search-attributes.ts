import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Every business id support staff can search by in the Temporal UI. The dev server registers these at start
 * (see temporal/dev-server.ts); on a self-hosted namespace `bankflow setup` registers them, and on Temporal
 * Cloud it names the tcld command that does.
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
  /**
   * A keyed hash of the customer's tax number (starter/customer-key.ts), never the number itself. A list of
   * one key: SQL visibility stores (the dev server's among them) hold at most 10 custom Keyword attributes,
   * and the ten above take them all; `BankflowCustomerKey = '<key>'` finds it all the same.
   */
  customerKey: defineSearchAttributeKey('BankflowCustomerKey', SearchAttributeType.KEYWORD_LIST),
  /**
   * Why the bank's reads of a journey are failing, while they are: its failure type (`BankUnauthorized`,
   * `BankUnavailable`, `BankInvalidResponse`, ...; contract/bank-trouble.ts). A list, for the same reason as
   * the customer key: `BankflowBankTrouble = 'BankUnauthorized'` finds the journeys a credential rotation
   * holds.
   */
  bankTrouble: defineSearchAttributeKey('BankflowBankTrouble', SearchAttributeType.KEYWORD_LIST),
} as const;

/** The value of `BankflowBankTrouble` for a journey's state: its trouble's type, or none. */
export const bankTroubleValue = (state: { bankTrouble?: { type: string } }): string[] =>
  state.bankTrouble ? [state.bankTrouble.type] : [];

export const allSearchAttributeKeys = Object.values(searchAttributes);

/** A search attribute's type as the Temporal CLI and tcld spell it: `Keyword`, `KeywordList`. */
export const searchAttributeTypeName = (type: string): string =>
  type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
