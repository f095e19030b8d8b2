/** How a journey follows the bank between webhooks; tests and the chaos run shorten it, merchants never set it. */
export interface PollingSettings {
  /** Silence after which the workflow asks the bank itself, doubled after each unanswered poll. */
  firstPollAfterMs: number;
  maxPollIntervalMs: number;
}
