import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { BankClient } from '../../src/bank/client.js';
import { BankInvalidResponseError } from '../../src/bank/errors.js';
import { createLogger } from '../../src/logger.js';
import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import {
  findOrCreateDevice,
  InvalidInputError,
  resolveUnmatchedWebhook,
  startEnrollment,
  startPayment,
  startRecurrence,
  type StarterContext,
} from '../../src/starter/index.js';
import { createReceiver } from '../../src/webhooks/app.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { ids } from '../fuzz/merchant-cases.js';
import { failureOf, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';
import { postSignedWebhook } from '../helpers/http.js';
import { sandboxControl } from '../helpers/sandbox-control.js';
import { required } from '../helpers/stack.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';
import { testEnvKeys } from '../setup/shared.js';

const refused = /must not contain control or bidi override characters \(found U\+[0-9A-F]{4}\)/;
const refusal = (field: string, codePoint: string) =>
  `${field}: must not contain control or bidi override characters (found U+${codePoint})`;

const clearScreen = '\u001b[2J\u001b[H';
const hyperlink = '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\';

describe('control characters at the edges: bank answers, webhooks, the sandbox and merchant input', () => {
  let data: DataSandbox;
  let stub: StubBank;
  /** What the stub bank answers next, as JSON with status 200. */
  let served: unknown;
  let fromStub: BankClient;

  beforeAll(async () => {
    data = await startDataSandbox();
    stub = await startStubBank((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(served)),
    );
    fromStub = new BankClient(
      { clientId: 'stub', clientSecret: 'stub-secret', baseUrl: stub.baseUrl, timeoutMs: 5_000 },
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await stub?.stop();
    await data?.stop();
  });

  const seededPurchase = () =>
    structuredClone([...data.sandbox.state.bankData.purchasesByEndToEndId.values()][0]!);
  const seededRefund = () => structuredClone(data.sandbox.state.bankData.refunds[0]!);

  describe('a bank answer', () => {
    it('carrying ESC in a card purchase category is refused, naming the field', async () => {
      const purchase = seededPurchase();
      served = { data: { ...purchase, category_type: `food${clearScreen}` } };
      const error = await failureOf(fromStub.getCardPurchaseByEndToEndId(purchase.end_to_end_id));
      expect(error).toBeInstanceOf(BankInvalidResponseError);
      expect(error.message).toContain(refusal('data.category_type', '001B'));
    });

    it.each([
      ['a stage type, 8-bit CSI', ['data', 'stages', 0, 'callback_type'], '\u009b2J', '009B'],
      ['a status, bidi override', ['data', 'status'], '\u202edelttes', '202E'],
      ['a category code, newline', ['data', 'category_code'], '5812\nFAKE ROW', '000A'],
      ['an end-to-end id, DEL', ['data', 'end_to_end_id'], 'E123\u007f', '007F'],
    ])(
      'carrying a control character in %s is refused, naming the field',
      async (_what, path, value, code) => {
        const body = { data: seededPurchase() } as Record<string | number, unknown>;
        let parent = body;
        for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
        parent[path[path.length - 1] as string | number] = value;
        served = body;
        const error = await failureOf(fromStub.getCardPurchaseByEndToEndId('E1'));
        expect(error).toBeInstanceOf(BankInvalidResponseError);
        expect(error.message).toContain(refusal(path.join('.'), code));
      },
    );

    it('carrying a control character in a list cursor is refused, naming it', async () => {
      served = { data: [seededRefund()], metadata: { before: null, after: 'abc\u001b[2J', has_next: true } };
      const error = await failureOf(fromStub.listReceivableRefunds());
      expect(error).toBeInstanceOf(BankInvalidResponseError);
      expect(error.message).toContain(refusal('metadata.after', '001B'));
    });

    it('keeps human text (a description, a merchant name) as the bank wrote it: the CLI escapes it when shown', async () => {
      const purchase = seededPurchase();
      served = { data: { ...purchase, description: hyperlink, merchant_name: `Loja${clearScreen}` } };
      const read = await fromStub.getCardPurchaseByEndToEndId(purchase.end_to_end_id);
      expect(read.description).toBe(hyperlink);
      expect(read.merchant_name).toBe(`Loja${clearScreen}`);
    });
  });

  describe('the sandbox bank validates with the same schemas', () => {
    it('refuses a device whose fingerprint or OS carries a control character (422 naming the member)', async () => {
      for (const [member, value] of [
        ['fingerprint', 'fp\u001b]8;;x'],
        ['os', 'iOS\u009d'],
      ] as const) {
        const answer = await data.raw('/biometrics/devices', {
          method: 'POST',
          body: { fingerprint: 'fp-1', counterparty_tax_number: '12345678909', [member]: value },
        });
        expect(answer.statusCode).toBe(422);
        expect(answer.json().errors).toEqual([
          expect.objectContaining({
            source: { pointer: `/${member}` },
            detail: expect.stringMatching(refused),
          }),
        ]);
      }
    });

    it('refuses an announced webhook whose category carries ESC (422 naming the member)', async () => {
      const answer = await sandboxControl(data.sandbox.url).post<{ errors: unknown[] }>(
        '/sandbox/webhooks/events',
        { category: `initiation_document${clearScreen}`, type: 'settled', ref_id: ids.device, data: {} },
      );
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({ source: { pointer: '/category' }, detail: expect.stringMatching(refused) }),
      ]);
    });
  });

  describe('merchant input', () => {
    let connection: Connection;
    let starter: StarterContext;

    beforeAll(async () => {
      connection = await Connection.connect({ address: required(testEnvKeys.address) });
      const client = new Client({ connection, namespace: required(testEnvKeys.namespace) });
      starter = {
        client,
        taskQueue: 'control-characters-no-worker',
        customerKeySecret: 'control-characters',
      };
    });
    afterAll(() => connection?.close());

    async function refusedInput(call: Promise<unknown>, field: string, codePoint: string): Promise<void> {
      const error = await failureOf(call);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toBe(refusal(field, codePoint));
    }

    it('a payment description with a control character is refused before anything starts', async () => {
      const payment = {
        enrollmentId: ids.enrollment,
        deviceId: ids.device,
        amountCents: 1_050,
        entityId: ids.entity,
        virtualAccountId: ids.account,
      };
      await refusedInput(
        startPayment(starter, { ...payment, description: `Pedido${clearScreen}` }),
        'description',
        '001B',
      );
      await refusedInput(
        startPayment(starter, { ...payment, description: 'Pedido\n1' }),
        'description',
        '000A',
      );
      await refusedInput(
        startPayment(starter, { ...payment, description: '\u202eodideP' }),
        'description',
        '202E',
      );
    });

    it('a recurrence payer name or description with a control character is refused', async () => {
      const recurrenceRequest = exampleRecurrenceRequest({
        externalId: 'recurrence-1',
        virtualAccountId: ids.account,
      });
      await refusedInput(
        startRecurrence(starter, { ...recurrenceRequest, description: 'Plano\u009b2J' }),
        'description',
        '009B',
      );
      await refusedInput(
        startRecurrence(starter, {
          ...recurrenceRequest,
          counterparty: { ...recurrenceRequest.counterparty, name: 'Maria\u0007Souza' },
        }),
        'counterparty.name',
        '0007',
      );
    });

    it('an enrollment external id, a device name and a support note with a control character are refused', async () => {
      await refusedInput(
        startEnrollment(starter, {
          deviceId: ids.device,
          participantId: ids.participant,
          returnToUrl: 'https://merchant.example/back',
          externalId: 'enrollment\t1',
        }),
        'externalId',
        '0009',
      );
      await refusedInput(
        findOrCreateDevice(
          { bank: data.bank },
          { fingerprint: 'fp-1', counterparty_tax_number: '12345678909', counterparty_name: 'Maria\u2066' },
        ),
        'counterparty_name',
        '2066',
      );
      await refusedInput(
        resolveUnmatchedWebhook(starter, { event: 'some-event', note: `done${clearScreen}`, by: 'support' }),
        'note',
        '001B',
      );
    });
  });

  describe('the webhook receiver', () => {
    const secret = 'control-characters-secret';
    let connection: Connection;
    let receiver: FastifyInstance;
    let url: string;

    beforeAll(async () => {
      connection = await Connection.connect({ address: required(testEnvKeys.address) });
      receiver = createReceiver({
        client: new Client({ connection, namespace: required(testEnvKeys.namespace) }),
        taskQueue: 'control-characters-no-worker',
        auth: { secrets: [secret], disabled: false, acceptSecretHeader: false },
        maxAgeMs: undefined,
        router: bankflowRouter,
        logger: createLogger('silent'),
      });
      url = await receiver.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await receiver?.close();
      await connection?.close();
    });

    it.each([
      ['category', `initiation_document${clearScreen}`, '001B'],
      ['category', 'initiation_document\u009d8;;x', '009D'],
      ['type', 'settled\r\nfake', '000D'],
      ['type', '\u2067settled', '2067'],
    ])('answers 400 naming %s when it holds a control character (%#)', async (member, value, codePoint) => {
      const envelope = {
        category: 'initiation_document',
        type: 'settled',
        ref_id: ids.device,
        timestamp: new Date().toISOString(),
        data: { id: ids.device },
        [member]: value,
      };
      const answer = await postSignedWebhook(url, JSON.stringify(envelope), secret);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: refusal(member, codePoint) });
    });
  });
});
