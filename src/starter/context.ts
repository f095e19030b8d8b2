import type { Client } from '@temporalio/client';

/**
 * What every workflow-starting function needs: a Temporal client and the task queue bankflow's workers poll.
 */
export interface StarterContext {
  client: Client;
  taskQueue: string;
  /** How long a request to a running workflow waits for its answer; 60 s by default. */
  replyTimeoutMs?: number;
  /**
   * SUPPORT_LOOKUP_SECRET: keys the customer hash a start carries when given the customer's tax number, so
   * support staff find the customer's workflows (connectStarter sets it from the environment).
   */
  customerKeySecret?: string;
}
