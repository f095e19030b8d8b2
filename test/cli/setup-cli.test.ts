import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { allSearchAttributeKeys } from '../../src/contract/temporal.js';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { runCli } from '../helpers/cli.js';
import { required } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

const typed = (outcome: string) => allSearchAttributeKeys.map(({ name, type }) => ({ name, type, outcome }));
/** The server's IndexedValueType numbers: Keyword 2, KeywordList 7. */
const indexedType: Record<string, number> = { KEYWORD: 2, KEYWORD_LIST: 7 };

describe('bankflow setup', () => {
  const address = required(testEnvKeys.address);
  const namespace = `setup-${randomUUID().slice(0, 8)}`;
  const env = { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
  let connection: Connection;

  const customAttributes = async () =>
    (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};

  beforeAll(async () => {
    connection = await Connection.connect({ address });
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(86_400_000),
    });
    // A namespace just registered reaches the frontend's cache a moment later.
    for (let tries = 0; ; tries++) {
      try {
        await customAttributes();
        break;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  });
  afterAll(() => connection?.close());

  it(
    'a fresh namespace refuses schedules with the reason printed; setup registers every attribute, twice is a no-op',
    async () => {
      expect(Object.keys(await customAttributes())).not.toContain('BankflowKind');

      const refused = await runCli(['schedules', 'apply'], env);
      expect(refused.code).toBe(1);
      // The client's own message, then the server's reason from its cause.
      expect(refused.stderr).toMatch(/Failed to create schedule.*: .*BankflowKind/);

      const first = await runCli(['setup'], env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual(typed('registered'));
      const registered = await customAttributes();
      for (const { name, type } of allSearchAttributeKeys) expect(registered[name]).toBe(indexedType[type]);

      const second = await runCli(['setup'], env);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toEqual(typed('already registered'));

      const applied = await runCli(['schedules', 'apply'], env);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
    },
    cliTestTimeoutMs,
  );

  it(
    'a namespace that does not exist: says so and how to create it',
    async () => {
      const missing = await runCli(['setup'], {
        ...env,
        TEMPORAL_NAMESPACE: `missing-${randomUUID().slice(0, 8)}`,
      });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(
        /namespace missing-\w+ does not exist .*temporal operator namespace create/,
      );
    },
    cliTestTimeoutMs,
  );
});
