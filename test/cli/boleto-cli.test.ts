import { startTestStack, type TestStack } from '../helpers/stack.js';
import { runCli } from '../helpers/cli.js';
import { testEnvKeys } from '../setup/shared.js';

describe('bankflow boleto cancel', () => {
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    env = {
      TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '',
      TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace] ?? 'default',
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
    };
  });
  afterAll(() => stack?.stop());

  it('prints the cancelled boleto as JSON', async () => {
    const boleto = [...stack.sandbox.state.boletos.values()][10];
    const result = await runCli(['boleto', 'cancel', boleto?.id ?? ''], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: boleto?.id, status: 'cancelled' });
  });

  it("exits 1 with the bank's reason for an unknown boleto", async () => {
    const result = await runCli(['boleto', 'cancel', '22222222-2222-4222-8222-222222222222'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: cancelBoleto: not found \(HTTP 404\): boleto 2{8}-.* not found/);
  });

  it('names the field when the id is not a uuid', async () => {
    const result = await runCli(['boleto', 'cancel', 'abc'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: <boleto-id>: must be a uuid/);
  });

  it('names the variable when the configuration is wrong', async () => {
    const result = await runCli(['boleto', 'cancel', 'abc'], { ...env, TEMPORAL_UI_PORT: 'x' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/TEMPORAL_UI_PORT: /);
  });
});
