import type { ReceivableRefund } from '../../src/bank/schemas/refund.js';
import { unprintableCharacter } from '../../src/bank/schemas/printable.js';
import { runCli } from '../helpers/cli.js';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { printedJson, printedLines } from '../helpers/cli-output.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';

/**
 * Every trick at once: clear the screen, plant an OSC 8 link, fake a row, reorder the line, 8-bit CSI and
 * OSC.
 */
const hostileDescription =
  'Estorno\u001b[2J\u001b[H' +
  '\u001b]8;;https://evil.example/login\u001b\\Clique aqui\u001b]8;;\u001b\\' +
  '\nfake-refund  2025-06-01T00:00:00Z  settled  R$ 9.999,00' +
  '\u202edlo\u009b2J\u009d8;;x\u0007\b\r\t\u007f';

const refund: ReceivableRefund = {
  id: '7a0c5e1d-2b3f-4c6d-8e9f-0a1b2c3d4e5f',
  amount: { amount: 1_050, currency: 'BRL' },
  bank_account_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  collecting_document_id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  entity_id: '3d4e5f6a-7b8c-4d9e-8f0a-2b3c4d5e6f7a',
  virtual_account_id: '4e5f6a7b-8c9d-4e0f-9a1b-3c4d5e6f7a8b',
  origin_id: '5f6a7b8c-9d0e-4f1a-8b2c-4d5e6f7a8b9c',
  reconciliation_id: null,
  description: hostileDescription,
  external_id: 'refund-1',
  end_to_end_id: 'D18236120202506011200abcdefghijk',
  receipt_url: 'https://receipts.example/refund-1',
  origin_type: 'collecting_document',
  status: 'settled',
  timestamp: '2025-06-01T12:00:00Z',
  transaction_date: '2025-06-01T12:00:05Z',
  stages: [],
};

/** What a terminal would act on in the output, the line breaks between rows excepted. */
const actsOnTerminal = (text: string) => text.split('\n').some((line) => unprintableCharacter.test(line));

describe('bankflow output with hostile bank strings', () => {
  let bank: StubBank;
  let env: Record<string, string>;

  beforeAll(async () => {
    bank = await startStubBank((request, response) => {
      const body = request.url?.startsWith('/banking/cashin/refunds')
        ? { data: [refund], metadata: { before: null, after: null, has_next: false } }
        : { errors: [{ title: 'NOT_FOUND', detail: `not served by this stub ${hostileDescription}` }] };
      response
        .writeHead(body.data ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(body));
    });
    env = { BANK_BASE_URL: bank.baseUrl, BANK_CLIENT_ID: 'stub-client', BANK_CLIENT_SECRET: 'stub-secret' };
  });
  afterAll(() => bank?.stop());

  it(
    'refunds list --table never prints the raw ESC byte: the description shows escaped, in one row',
    async () => {
      const result = await runCli(['refunds', 'list', '--table'], env);
      expect(result.stderr).toBe('');
      const lines = printedLines(result);
      expect(result.stdout).not.toContain('\u001b');
      expect(Buffer.from(result.stdout).includes(0x1b)).toBe(false);
      expect(actsOnTerminal(result.stdout)).toBe(false);
      // The header and one row: the newline in the description did not fake a second refund.
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^ID\s+TIMESTAMP\s+STATUS\s+AMOUNT\s+END TO END ID\s+DESCRIPTION$/);
      expect(lines[1]).toContain(
        'Estorno\\u001b[2J\\u001b[H\\u001b]8;;https://evil.example/login\\u001b\\Clique aqui\\u001b]8;;\\u001b\\' +
          '\\u000afake-refund  2025-06-01T00:00:00Z  settled  R$ 9.999,00' +
          '\\u202edlo\\u009b2J\\u009d8;;x\\u0007\\u0008\\u000d\\u0009\\u007f',
      );
      expect(lines[1]?.startsWith(refund.id)).toBe(true);
    },
    cliTestTimeoutMs,
  );

  it(
    'refunds list as JSON escapes what JSON leaves raw (C1, DEL, bidi) and still parses to the bank value',
    async () => {
      const result = await runCli(['refunds', 'list'], env);
      expect(actsOnTerminal(result.stdout)).toBe(false);
      const printed = printedJson(result) as { data: ReceivableRefund[] };
      expect(printed.data[0]?.description).toBe(hostileDescription);
    },
    cliTestTimeoutMs,
  );

  it(
    'an error that quotes the bank prints its words escaped on stderr',
    async () => {
      const result = await runCli(['card', 'get', '6a7b8c9d-0e1f-4a2b-8c3d-5e6f7a8b9c0d'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('\\u001b[2J');
      expect(actsOnTerminal(result.stderr)).toBe(false);
    },
    cliTestTimeoutMs,
  );
});
