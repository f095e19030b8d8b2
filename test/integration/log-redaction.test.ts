import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { enroll, newCustomer, payAndSettle } from '../helpers/journey.js';
import { receiverSecret, sandboxCredentials, startTestStack, type TestStack } from '../helpers/stack.js';

describe('logs of a full journey', () => {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('trace', capture);
  let stack: TestStack;

  beforeAll(async () => {
    installTemporalRuntime(logger);
    stack = await startTestStack({ receiver: true, logger });
  });
  afterAll(() => stack?.stop());

  it('carry no credential, secret or customer data, at the most verbose level', async () => {
    const customer = await newCustomer(stack);
    const { result } = await enroll(stack, customer);
    const externalId = `logs-${Date.now()}`;
    const { assertion } = await payAndSettle(stack, customer, {
      externalId,
      enrollmentId: result.enrollment?.id ?? '',
      amountCents: 1_990,
      description: 'Assinatura mensal',
    });

    const basic = Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString(
      'base64',
    );
    const account = result.enrollment?.account_info;
    const forbidden = {
      'bank client secret': sandboxCredentials.clientSecret,
      'Basic credentials': basic,
      'webhook secret': receiverSecret,
      'tax number': '12345678909',
      'customer name': 'Maria Silva',
      'account number': `${account?.number ?? 'none'}`,
      'assertion signature': assertion.response.signature,
      'attestation/client data': assertion.response.client_data_JSON,
    };
    expect(lines.length).toBeGreaterThan(50);
    const leaks = Object.entries(forbidden).flatMap(([what, value]) =>
      lines.filter((line) => line.includes(value)).map((line) => `${what}: ${line.slice(0, 200)}`),
    );
    expect(leaks).toEqual([]);
    expect(
      lines.some((line) => line.includes('[redacted]') || line.includes('"component":"bank-client"')),
    ).toBe(true);
  });
});
