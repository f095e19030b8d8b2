/**
 * The resources bankflow notifies the merchant of, apart from the rest of the notifications contract: the
 * CLI's definitions name them, and load neither Temporal nor its payload types to do it.
 */
export const notifiedResources = ['payment', 'enrollment', 'recurrence', 'boleto'] as const;
export type NotifiedResource = (typeof notifiedResources)[number];
