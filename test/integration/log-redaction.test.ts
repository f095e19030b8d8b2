import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createCodecServer } from '../../src/codec-server/app.js';
import { createLogger } from '../../src/logger.js';
import { authorizePayment, startPayment } from '../../src/starter/index.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { workflowIds } from '../../src/contract/ids.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { httpCall } from '../helpers/http.js';
import { enroll, newCustomer, payAndSettle, world } from '../helpers/journey.js';
import {
  encryptionKeys,
  receiverSecret,
  sandboxCredentials,
  startTestStack,
  type TestStack,
} from '../helpers/stack.js';

const codecToken = 'log-scan-codec-token';

describe('logs of a full journey', () => {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('debug', capture);
  let stack: TestStack;
  let codecServer: FastifyInstance;

  beforeAll(async () => {
    installTemporalRuntime(logger);
    stack = await startTestStack({ receiver: true, logger });
    codecServer = createCodecServer({
      codec: new EncryptionCodec(encryptionKeys, 'pass'),
      auth: { users: [], tokens: [codecToken] },
      corsOrigins: [],
      logger,
    });
  });
  afterAll(async () => {
    await codecServer?.close();
    await stack?.stop();
  });

  /** The enrollment's history as support staff see it: every payload decoded by the codec server. */
  async function decodeThroughCodecServer(workflowId: string): Promise<string> {
    const url = await codecServer.listen({ host: '127.0.0.1', port: 0 });
    const history = await stack.client.workflow.getHandle(workflowId).fetchHistory();
    const payloads = (history.events ?? []).flatMap((event) => [
      ...(event.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ...(event.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
    ]);
    const answer = await httpCall(`${url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${codecToken}` },
      body: JSON.stringify({
        payloads: payloads.map((payload) => ({
          metadata: Object.fromEntries(
            Object.entries(payload.metadata ?? {}).map(([key, value]) => [
              key,
              Buffer.from(value).toString('base64'),
            ]),
          ),
          data: Buffer.from(payload.data ?? []).toString('base64'),
        })),
      }),
    });
    expect(answer.statusCode).toBe(200);
    return answer.body;
  }

  it(
    'carry no credential, secret or customer data from any component, at debug level',
    async () => {
      const customer = await newCustomer(stack);
      const { result } = await enroll(stack, customer);
      const enrollmentId = result.enrollment?.id ?? '';
      const externalId = `logs-${Date.now()}`;
      const { assertion } = await payAndSettle(stack, customer, {
        externalId,
        enrollmentId,
        amountCents: 1_990,
        description: 'Assinatura mensal',
      });
      // A refusal, so that a bank failure reaches the logs too.
      const refusedPayment = await startPayment(stack, {
        externalId: `${externalId}-refused`,
        deviceId: customer.deviceId,
        enrollmentId,
        amountCents: 990,
        description: 'Assinatura anual',
        ...world(stack),
      });
      const authorization = customer.authenticator.getAssertion(
        refusedPayment.publicKeyEncoded,
        stack.sandbox.url,
      );
      const signature = authorization.response.signature;
      const refused = await authorizePayment(stack, {
        externalId: refusedPayment.externalId,
        assertion: {
          ...authorization,
          response: {
            ...authorization.response,
            signature: `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`,
          },
        },
      });
      expect(refused.ok).toBe(false);

      const decoded = await decodeThroughCodecServer(
        workflowIds.enrollment(customer.deviceId, customer.participantId),
      );
      expect(decoded).not.toContain('binary/encrypted');
      const env = { ...cliEnvFor(stack), LOG_LEVEL: 'debug' };
      const cliRuns = await Promise.all([
        runCli(
          [
            'device',
            'find-or-create',
            '--fingerprint',
            `fp-${externalId}`,
            '--tax-number',
            '12345678909',
            '--name',
            'Maria Silva',
          ],
          env,
        ),
        runCli(['payment', 'get', '--external-id', externalId], env),
      ]);
      for (const run of cliRuns) expect(run.code).toBe(0);
      // The CLI prints what it was asked for on stdout; its logs go to stderr.
      const cliLogs = cliRuns.flatMap((run) => run.stderr.split('\n').filter(Boolean));
      expect(cliLogs.some((line) => line.includes('"component":"bank-client"'))).toBe(true);

      const basic = Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString(
        'base64',
      );
      const account = result.enrollment?.account_info;
      const forbidden = {
        'bank client secret': sandboxCredentials.clientSecret,
        'Basic credentials': basic,
        'webhook secret': receiverSecret,
        'codec token': codecToken,
        'tax number': '12345678909',
        'customer name': 'Maria Silva',
        'account number': `${account?.number ?? 'none'}`,
        'assertion signature': assertion.response.signature,
        'attestation/client data': assertion.response.client_data_JSON,
      };
      const all = [...lines, ...cliLogs];
      expect(lines.length).toBeGreaterThan(50);
      const leaks = Object.entries(forbidden).flatMap(([what, value]) =>
        all.filter((line) => line.includes(value)).map((line) => `${what}: ${line.slice(0, 200)}`),
      );
      expect(leaks).toEqual([]);
      const components = new Set(lines.map((line) => (JSON.parse(line) as { component?: string }).component));
      expect([...components]).toEqual(
        expect.arrayContaining([
          'bank-client',
          'webhook-receiver',
          'temporal',
          'sandbox',
          'sandbox-webhooks',
        ]),
      );
      expect(all.some((line) => line.includes('bank failure (message not logged)'))).toBe(true);
    },
    cliTestTimeoutMs,
  );
});
