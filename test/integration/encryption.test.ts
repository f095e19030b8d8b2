import { Client, Connection } from '@temporalio/client';
import { developmentSupportLookupSecret } from '../../src/config.js';
import { customerKey } from '../../src/starter/customer-key.js';
import { workflowIds } from '../../src/workflows/ids.js';
import { enroll, newCustomer, payAndSettle } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

/** Every string and every byte string (as latin1) in a history, as the server stores it. */
function rawText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(rawText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(rawText).join('\n');
  return '';
}

describe('customer data in Temporal histories', () => {
  let stack: TestStack;
  let raw: Client;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    raw = new Client({
      connection: await Connection.connect({ address: process.env[testEnvKeys.address] ?? '' }),
      namespace: process.env[testEnvKeys.namespace],
    });
  });
  afterAll(async () => {
    await raw?.connection.close();
    await stack?.stop();
  });

  it('is unreadable in the raw history, memo and search attributes of an enrollment and a payment, and readable through the codec', async () => {
    const customer = await newCustomer(stack);
    // The starter keeps the customer's tax number only as its keyed hash, for support staff to search.
    const starter = { ...stack, customerKeySecret: developmentSupportLookupSecret };
    const customerTaxNumber = '123.456.789-09';
    const { result } = await enroll(starter, customer, { customerTaxNumber });
    const accountNumber = result.enrollment?.account_info?.number ?? '';
    const externalId = `enc-${Date.now()}`;
    const { created, assertion } = await payAndSettle(starter, customer, {
      externalId,
      customerTaxNumber,
      enrollmentId: result.enrollment?.id ?? '',
      amountCents: 4_200,
      description: 'Pedido confidencial',
    });

    const secrets = [
      '12345678909',
      'Maria Silva',
      accountNumber,
      assertion.response.signature,
      'Pedido confidencial',
    ];
    for (const workflowId of [
      workflowIds.enrollment(customer.deviceId, customer.participantId),
      workflowIds.payment(externalId),
    ]) {
      const history = rawText(await raw.workflow.getHandle(workflowId).fetchHistory());
      expect(history).toContain('binary/encrypted');
      for (const secret of secrets) expect(history).not.toContain(secret);
      // The memo the merchant's reads come from, as the server hands it out.
      const { workflowExecutionInfo } = await raw.workflowService.describeWorkflowExecution({
        namespace: raw.options.namespace,
        execution: { workflowId },
      });
      const memo = rawText(workflowExecutionInfo?.memo);
      expect(memo).toContain('binary/encrypted');
      for (const secret of secrets) expect(memo).not.toContain(secret);
      // Search attributes are not encrypted: the customer is there only as the key.
      const indexed = rawText(workflowExecutionInfo?.searchAttributes);
      expect(indexed).toContain(customerKey(developmentSupportLookupSecret, '12345678909'));
      for (const secret of [...secrets, customerTaxNumber]) expect(indexed).not.toContain(secret);
      for (const secret of [...secrets, customerTaxNumber]) expect(history).not.toContain(secret);
    }
    const readable = JSON.stringify(
      await stack.client.workflow.getHandle(workflowIds.payment(externalId)).result(),
    );
    expect(readable).toContain(created.payment.id);
  });
});
