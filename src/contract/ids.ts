/** Business-keyed workflow ids: a webhook or a merchant call finds its workflow without a database. */
export const workflowIds = {
  boletoCancel: (boletoId: string) => `boleto-cancel:${boletoId}`,
  enrollment: (deviceId: string, participantId: string) => `enrollment:${deviceId}:${participantId}`,
  payment: (externalId: string) => `payment:${externalId}`,
  recurrence: (externalId: string) => `recurrence:${externalId}`,
  /** One attempts sync per window; asking again while it runs joins it. */
  attemptsSync: (from: string, to: string) => `attempts-sync:${from}..${to}`,
  /** A slice of an attempts sync's window, keyed by both windows: a child of that sync alone. */
  attemptsSyncSlice: (window: { from: string; to: string }, slice: { from: string; to: string }) =>
    `attempts-sync:${window.from}..${window.to}/slice:${slice.from}..${slice.to}`,
  /** The Pix cash-ins of one end-to-end id, held until the payment showing that id claims them. */
  cashIn: (endToEndId: string) => `cash-in:${endToEndId}`,
  /** One workflow per unclaimed bank event, keyed by the event's dedupe key. */
  unmatchedWebhook: (eventKey: string) => `webhook-unmatched:${eventKey}`,
};
