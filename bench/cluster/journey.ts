import type { Client } from '@temporalio/client';
import { demoStepCount, runDemoJourney } from '../../devkit/cli/demo/journey.js';
import { StepPrinter } from '../../devkit/cli/demo/steps.js';
import type { BankReadContext } from '../../src/starter/index.js';
import type { PaymentResult } from '../../src/contract/payment.js';

/** The demo's steps, with something done just before one of them (a worker killed, the server restarted). */
class HookedSteps extends StepPrinter {
  constructor(
    private readonly before: Record<string, () => Promise<void>>,
    print: (line: string) => void,
  ) {
    super(demoStepCount, print);
  }

  override async step<T>(title: string, run: () => Promise<T>, describe: (value: T) => string): Promise<T> {
    await this.before[title]?.();
    return super.step(title, run, describe);
  }
}

export interface JourneyRun {
  result: PaymentResult;
  paymentWorkflowId: string;
}

/** The CLI demo's journey (device, enrollment, payment) against the cluster, as `bankflow demo` runs it. */
export async function runJourney(options: {
  client: Client;
  taskQueue: string;
  customerKeySecret: string;
  bank: BankReadContext;
  sandboxUrl: string;
  /** The sandbox's control token, which the cluster was started with. */
  sandboxToken: string;
  /** Run just before the step of that title, given the payment's workflow once it has started. */
  before?: Record<string, (paymentWorkflowId: string) => Promise<void>>;
  log: (line: string) => void;
}): Promise<JourneyRun> {
  let paymentWorkflowId = '';
  const before = Object.fromEntries(
    Object.entries(options.before ?? {}).map(([title, hook]) => [title, () => hook(paymentWorkflowId)]),
  );
  const result = await runDemoJourney({
    starter: {
      client: options.client,
      taskQueue: options.taskQueue,
      customerKeySecret: options.customerKeySecret,
    },
    bank: options.bank,
    sandboxUrl: options.sandboxUrl,
    sandboxToken: options.sandboxToken,
    amountCents: 1050,
    steps: new HookedSteps(before, options.log),
    onWorkflow: (workflowId) => {
      if (workflowId.startsWith('payment:')) paymentWorkflowId = workflowId;
    },
  });
  return { result, paymentWorkflowId };
}

/** The worker identities (`<pid>@<host>`) that completed the workflow's tasks, in history order. */
export async function workflowTaskIdentities(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .map((event) => event.workflowTaskCompletedEventAttributes?.identity)
    .filter((identity): identity is string => Boolean(identity));
}
