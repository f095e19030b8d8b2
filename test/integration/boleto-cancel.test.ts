import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import {
  cancelBoleto,
  connectBankReads,
  connectStarter,
  InvalidInputError,
  listParticipants,
} from '../../src/starter/index.js';
import { testEnvKeys } from '../setup/shared.js';
import { workflowIds } from '../../src/contract/ids.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { activityAttempts } from '../helpers/history.js';
import { recordHistory } from '../helpers/replay.js';

function seededBoletoId(stack: TestStack, index = 0): string {
  const boleto = [...stack.sandbox.state.boletos.values()][index];
  if (!boleto) throw new Error('the sandbox has no seeded boleto');
  return boleto.id;
}

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const activityFailure = (error as WorkflowFailedError).cause;
  expect(activityFailure).toBeInstanceOf(ActivityFailure);
  const cause = (activityFailure as ActivityFailure).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

describe('boleto cancellation through Temporal and the sandbox bank', () => {
  let stack: TestStack;
  let badCredentials: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
    badCredentials = await startTestStack({ bank: { clientSecret: 'not-the-secret' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await badCredentials?.stop();
  });

  it('cancels a seeded boleto and records it at the bank', async () => {
    const boletoId = seededBoletoId(stack);
    const boleto = await cancelBoleto(stack, { boletoId });

    expect(boleto.id).toBe(boletoId);
    expect(boleto.status).toBe('cancelled');
    expect(stack.sandbox.state.boletos.get(boletoId)?.status).toBe('cancelled');

    const description = await stack.client.workflow.getHandle(workflowIds.boletoCancel(boletoId)).describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.searchAttributes.BankflowBoletoId).toEqual([boletoId]);
    expect(description.searchAttributes.BankflowStatus).toEqual(['cancelled']);
    await recordHistory(stack.client, workflowIds.boletoCancel(boletoId), 'boleto-cancel-succeeded');
  });

  it('cancelling an already cancelled boleto answers the same cancelled boleto', async () => {
    const boletoId = seededBoletoId(stack, 1);
    const first = await cancelBoleto(stack, { boletoId });
    const second = await cancelBoleto(stack, { boletoId });
    expect(second).toEqual(first);
  });

  it('fails at once, without retrying, when the bank refuses the credentials', async () => {
    const boletoId = seededBoletoId(badCredentials, 2);
    const started = Date.now();
    const failure = await failureOf(cancelBoleto(badCredentials, { boletoId }));

    expect(failure.type).toBe('BankUnauthorized');
    expect(failure.message).toContain('BANK_CLIENT_ID');
    expect(failure.message).toContain('BANK_CLIENT_SECRET');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(
      await activityAttempts(badCredentials.client, workflowIds.boletoCancel(boletoId), 'cancelBoleto'),
    ).toEqual([1]);
    expect(badCredentials.sandbox.state.boletos.get(boletoId)?.status).toBe('confirmed');
    await recordHistory(
      badCredentials.client,
      workflowIds.boletoCancel(boletoId),
      'boleto-cancel-unauthorized',
    );
  });

  it('retries a burst of 500 INTEGRATION_ERROR answers until the bank cancels the boleto', async () => {
    const boletoId = seededBoletoId(stack, 3);
    stack.sandbox.faults.configure({
      ...stack.sandbox.faults.current(),
      fail_next: [{ method: 'PUT', path_prefix: '/banking/cashin/boletos/', count: 3, status: 500 }],
    });
    const failuresBefore = stack.sandbox.faults.injected.ruleFailures;

    const boleto = await cancelBoleto(stack, { boletoId });

    expect(boleto.status).toBe('cancelled');
    expect(stack.sandbox.faults.injected.ruleFailures - failuresBefore).toBe(3);
    expect(await activityAttempts(stack.client, workflowIds.boletoCancel(boletoId), 'cancelBoleto')).toEqual([
      4,
    ]);
    await recordHistory(stack.client, workflowIds.boletoCancel(boletoId), 'boleto-cancel-retried');
  });

  it("ends only once the bank's answer shows the boleto cancelled, asking again while its reads lag", async () => {
    const boletoId = seededBoletoId(stack, 5);
    const before = stack.sandbox.state.boletos.get(boletoId)?.status;
    expect(before).not.toBe('cancelled');
    stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), get_lag_ms: 2_500 });
    try {
      const boleto = await cancelBoleto(stack, { boletoId });
      expect(boleto).toMatchObject({ id: boletoId, status: 'cancelled' });
      // The first answers still showed the boleto as it was; the workflow asked again instead of ending on
      // them.
      const asked = await activityAttempts(stack.client, workflowIds.boletoCancel(boletoId), 'cancelBoleto');
      expect(asked.length).toBeGreaterThan(1);
      const description = await stack.client.workflow
        .getHandle(workflowIds.boletoCancel(boletoId))
        .describe();
      expect(description.searchAttributes.BankflowStatus).toEqual(['cancelled']);
    } finally {
      stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), get_lag_ms: 0 });
    }
  });

  it('fails without retrying when the boleto does not exist', async () => {
    const boletoId = '00000000-0000-4000-8000-000000000000';
    const failure = await failureOf(cancelBoleto(stack, { boletoId }));
    expect(failure.type).toBe('BankNotFound');
    expect(failure.message).toContain(boletoId);
    expect(await activityAttempts(stack.client, workflowIds.boletoCancel(boletoId), 'cancelBoleto')).toEqual([
      1,
    ]);
  });

  it('works through a starter context configured from the environment, as a merchant backend builds it', async () => {
    const starter = await connectStarter({
      BANKFLOW_ENV: 'development',
      TEMPORAL_ADDRESS: process.env[testEnvKeys.address],
      TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace],
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
    });
    try {
      expect(starter.taskQueue).toBe(stack.taskQueue);
      const boleto = await cancelBoleto(starter, { boletoId: seededBoletoId(stack, 4) });
      expect(boleto.status).toBe('cancelled');
    } finally {
      await starter.close();
    }
    await expect(connectStarter({ BANKFLOW_ENV: 'development', TEMPORAL_TLS: 'yes' })).rejects.toThrow(
      /TEMPORAL_TLS: /,
    );
  });

  it('reads the bank with the BANK_* settings from the environment', async () => {
    const reads = connectBankReads({
      BANKFLOW_ENV: 'development',
      BANK_BASE_URL: stack.sandbox.url,
      BANK_CLIENT_ID: stack.bank.clientId,
      BANK_CLIENT_SECRET: stack.bank.clientSecret,
      LOG_LEVEL: 'silent',
    });
    const participants = await listParticipants(reads);
    expect(participants.length).toBeGreaterThan(5);
    expect(() => connectBankReads({ BANKFLOW_ENV: 'development', BANK_BASE_URL: 'not a url' })).toThrow(
      /BANK_BASE_URL: /,
    );
  });

  it('refuses an id that is not a uuid before starting any workflow', async () => {
    await expect(cancelBoleto(stack, { boletoId: 'not-a-uuid' })).rejects.toThrow(InvalidInputError);
    await expect(cancelBoleto(stack, { boletoId: 'not-a-uuid' })).rejects.toThrow(/^boletoId: /);
  });
});
