import { Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { allSearchAttributeKeys } from '../../src/contract/temporal.js';
import { testEnvKeys } from '../setup/shared.js';
import { enroll, newCustomer, type Customer } from './journey.js';
import {
  encryptionKeys,
  required,
  startStackOn,
  testLogger,
  type TestStack,
  type TestStackOptions,
} from './stack.js';

const { IndexedValueType } = proto.temporal.api.enums.v1;

/**
 * A TestStack on a time-skipping test server of its own. Server time stands still until something lets it
 * run: `skip(duration)` moves it that far; `client`, like the SDK's time-skipping client, lets it run while
 * it awaits a workflow's result (`handle.result()`), jumping from timer to timer. It moves only while no
 * activity or workflow task is outstanding, and the sandbox bank's clocks are real time: shorten the bank's
 * windows through `sandbox.biometrics` when the bank must have moved on by the time a long timer fires.
 *
 * The test server gives every workflow started without timeouts a run timeout of 10 years, and that timeout
 * is a timer like any other: while `client` awaits a result, a workflow that waits with no timer of its own
 * times out as soon as nothing else is due, and one with a long-lived timer lets time jump to it. Drive such
 * workflows with `manualTimeClient`.
 */
export interface TimeSkippingStack extends TestStack {
  env: TestWorkflowEnvironment;
  /** The same encrypting client, except that awaiting a result never lets time run: only `skip` moves it. */
  manualTimeClient: Client;
  /** Lets server time run ahead by `duration` (ms or a duration string such as '10 days'), now. */
  skip(duration: Duration): Promise<void>;
  /** The server's current time. */
  now(): Promise<Date>;
}

/**
 * The test server knows no custom search attribute until it is registered, and fails workflow tasks using
 * one.
 */
async function registerSearchAttributes(env: TestWorkflowEnvironment): Promise<void> {
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      allSearchAttributeKeys.map(({ name, type }) => [name, IndexedValueType[`INDEXED_VALUE_TYPE_${type}`]]),
    ),
  });
}

/**
 * Starts Temporal's time-skipping test server (provisioned by jest's global setup) with bankflow's search
 * attributes, and on it the same stack as `startTestStack`: an in-process sandbox bank over HTTP, a bankflow
 * worker on a task queue of its own with the run's workflow bundle, an encrypting client, and the webhook
 * receiver if asked. One per test file; `stop()` in afterAll shuts the server down too.
 */
export async function startTimeSkippingStack(options: TestStackOptions = {}): Promise<TimeSkippingStack> {
  const logger = options.logger ?? testLogger();
  installTemporalRuntime(logger);
  const dataConverter = bankflowDataConverter(encryptionKeys);
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: required(testEnvKeys.timeSkippingServer) } },
    client: { dataConverter },
  });
  try {
    await registerSearchAttributes(env);
    const stack = await startStackOn(
      {
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        client: env.client,
        close: () => env.teardown(),
        routesByVersion: false,
      },
      { ...options, logger },
    );
    return Object.assign(stack, {
      env,
      manualTimeClient: new Client({ connection: env.connection, namespace: env.namespace, dataConverter }),
      skip: (duration: Duration) => env.sleep(duration),
      now: async () => new Date(await env.currentTimeMs()),
    });
  } catch (error) {
    await env.teardown();
    throw error;
  }
}

/** A payment test's stack, its customer and that customer's authorized enrollment. */
export interface EnrolledStack {
  stack: TimeSkippingStack;
  customer: Customer;
  enrollmentId: string;
}

/**
 * A time-skipping stack with the receiver where the test plays the bank: the bank's own clocks run in real
 * time, so within a test its consent window never closes by itself and it settles nothing unless told. One
 * customer is enrolled on it.
 */
export async function startBankPlayedStack(): Promise<EnrolledStack> {
  const stack = await startTimeSkippingStack({
    receiver: true,
    sandbox: { biometrics: { settlementDelayMs: null } },
  });
  const customer = await newCustomer(stack);
  const enrollmentId = (await enroll(stack, customer)).started.enrollmentId;
  return { stack, customer, enrollmentId };
}
