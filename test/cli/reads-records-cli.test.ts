import type { CardPurchaseDocument } from '../../src/bank/schemas/card-purchase.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { printedJson, printedLines, reaisCell } from '../helpers/cli-output.js';
import { cliEnvFor } from '../helpers/cli-env.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const unknownId = '00000000-0000-4000-8000-000000000000';

/** A table a command printed, with nothing on stderr. */
function tableOf(result: CliResult): string[] {
  expect(result.stderr).toBe('');
  return printedLines(result);
}

interface Counted {
  status: string;
  amount: { amount: number };
  bank_account_id: string;
  timestamp: string;
}

describe('bankflow card, attempts get and metrics', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  const read = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  const data = () => stack.sandbox.state.bankData;

  describe('card get', () => {
    it('prints the card as JSON, and as a table with its balance in reais', async () => {
      const card = [...data().cards.values()].find((c) => c.balance > 100_000)!;
      const [json, table] = await Promise.all([
        read('card', 'get', card.id),
        read('card', 'get', card.id, '--table'),
      ]);
      expect(printedJson(json)).toEqual(card);
      const [header, row, ...rest] = tableOf(table);
      expect(header).toMatch(/^ID +TYPE +STATUS +NAME +NUMBER +BALANCE$/);
      expect(row).toMatch(
        new RegExp(`^${card.id} +${card.type} +${card.status} +.+ +${reaisCell(card.balance)}$`),
      );
      expect(row).toContain(`${card.display_name}  ${card.masked_number}`);
      expect(rest).toEqual([]);
    });

    it('reports an unknown card (404), an id that is not a uuid, and refused credentials', async () => {
      const [missing, malformed, unauthorized] = await Promise.all([
        read('card', 'get', unknownId),
        read('card', 'get', 'card-1'),
        runCli(['card', 'get', unknownId], { ...env, BANK_CLIENT_ID: 'someone-else' }),
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(`error: getCard: not found (HTTP 404): card ${unknownId} not found\n`);
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toBe('error: <card-id>: must be a uuid (8-4-4-4-12 hex digits)\n');
      expect(unauthorized.code).toBe(1);
      expect(unauthorized.stderr).toMatch(/^error: getCard: .*HTTP 401 UNAUTHORIZED.*BANK_CLIENT_ID/);
    });
  });

  describe('card purchase', () => {
    const purchaseWithStages = () =>
      [...data().purchasesByEndToEndId.values()].find(
        (p) => p.stages.length === 3 && p.tax.amount > 0,
      ) as CardPurchaseDocument;

    it('prints the purchase by end-to-end id, found again within its UTC day and not on another', async () => {
      const purchase = purchaseWithStages();
      const day = purchase.compress_timestamp.slice(0, 10);
      const [plain, sameDay, otherDay] = await Promise.all([
        read('card', 'purchase', purchase.end_to_end_id),
        read('card', 'purchase', purchase.end_to_end_id, '--timestamp', `${day}T23:59:59Z`),
        read('card', 'purchase', purchase.end_to_end_id, '--timestamp', '2020-01-01T12:00:00Z'),
      ]);
      expect(printedJson(plain)).toEqual(purchase);
      expect(printedJson(sameDay)).toEqual(purchase);
      expect(otherDay.code).toBe(1);
      expect(otherDay.stderr).toBe(
        `error: getCardPurchaseByEndToEndId: not found (HTTP 404): card purchase ${purchase.end_to_end_id} not found on 2020-01-01\n`,
      );
    });

    it('--table prints the purchase and a line per stage', async () => {
      const purchase = purchaseWithStages();
      const lines = tableOf(await read('card', 'purchase', purchase.end_to_end_id, '--table'));
      expect(lines).toHaveLength(2 + 1 + 1 + purchase.stages.length);
      expect(lines[0]).toMatch(/^END TO END ID +STATUS +TIMESTAMP +MERCHANT +AMOUNT +TAX +CHARGED$/);
      expect(lines[1]).toMatch(new RegExp(`^${purchase.end_to_end_id} +${purchase.status} +`));
      expect(lines[1]).toMatch(
        new RegExp(
          `${reaisCell(purchase.amount.amount)} +${reaisCell(purchase.tax.amount)} +${reaisCell(purchase.issuer_amount.amount)}$`,
        ),
      );
      expect(lines[2]).toBe('');
      expect(lines[3]).toMatch(/^STAGE +STATUS +AT +AMOUNT$/);
      expect(lines.slice(4).map((line) => line.split(/ +/).slice(0, 3))).toEqual(
        purchase.stages.map((s) => [s.callback_type, s.status, s.inserted_at]),
      );
    });

    it('names an end-to-end id of the wrong shape and a bad --timestamp, and reports an unknown one', async () => {
      const [shape, timestamp, missing] = await Promise.all([
        read('card', 'purchase', 'E-1'),
        read('card', 'purchase', 'E123', '--timestamp', '2025-13-01'),
        read('card', 'purchase', 'E000000000000000000000000000000'),
      ]);
      expect(shape.stderr).toBe('error: <end-to-end-id>: must be 1 to 100 letters or digits\n');
      expect(timestamp.stderr).toBe(
        'error: --timestamp: must be an ISO 8601 date-time, e.g. 2025-06-01T00:00:00Z\n',
      );
      expect(missing.stderr).toMatch(/^error: getCardPurchaseByEndToEndId: not found \(HTTP 404\)/);
      for (const result of [shape, timestamp, missing]) expect(result.code).toBe(1);
    });
  });

  describe('card invoice', () => {
    it("prints the entity's open invoice, as JSON and as a table", async () => {
      const entityId = stack.sandbox.state.world.entityIds[1]!;
      const invoice = data().invoices.find((i) => i.entity_id === entityId && i.status === 'open')!;
      const [json, table] = await Promise.all([
        read('card', 'invoice', '--entity', entityId),
        read('card', 'invoice', '--entity', entityId, '--table'),
      ]);
      expect(printedJson(json)).toEqual(invoice);
      const [header, row, ...rest] = tableOf(table);
      expect(header).toMatch(/^ID +STATUS +FROM +TO +CONFIRMED +PENDING +BALANCE$/);
      expect(row).toMatch(
        new RegExp(
          `^${invoice.id} +open +${invoice.from_datetime} +${invoice.to_datetime} +${reaisCell(invoice.purchase_balance)} +${reaisCell(invoice.pending_confirmation_amount)} +${reaisCell(invoice.balance)}$`,
        ),
      );
      expect(rest).toEqual([]);
    });

    it('requires --entity, names a bad one, and reports an entity without an invoice', async () => {
      const [absent, malformed, unknown] = await Promise.all([
        read('card', 'invoice'),
        read('card', 'invoice', '--entity', 'acme'),
        read('card', 'invoice', '--entity', unknownId),
      ]);
      expect(absent.code).toBe(1);
      expect(absent.stderr).toMatch(/error: required option '--entity <id>' not specified/);
      expect(malformed.stderr).toBe('error: --entity: must be a uuid (8-4-4-4-12 hex digits)\n');
      expect(unknown.stderr).toBe(
        `error: getCurrentCardInvoice: not found (HTTP 404): no open card invoice for entity ${unknownId}\n`,
      );
    });
  });

  describe('attempts get', () => {
    it('prints the attempt with its stages, as JSON and as a table', async () => {
      const attempt = [...data().attempts.values()].find((a) => a.status === 'failed')!;
      const [json, table] = await Promise.all([
        read('attempts', 'get', attempt.id),
        read('attempts', 'get', attempt.id, '--table'),
      ]);
      expect(printedJson(json)).toEqual(attempt);
      const lines = tableOf(table);
      expect(lines[0]).toMatch(/^ID +TIMESTAMP +STATUS +TYPE +DUE +EXTERNAL ID +END TO END ID$/);
      expect(lines[1]).toMatch(new RegExp(`^${attempt.id} +${attempt.timestamp} +failed +${attempt.type} +`));
      expect(lines[2]).toBe('');
      expect(lines[3]).toMatch(/^STATUS +AT +ERROR$/);
      const stages = attempt.stages ?? [];
      expect(stages.length).toBeGreaterThan(0);
      expect(lines.slice(4)).toHaveLength(stages.length);
      lines.slice(4).forEach((line, index) => {
        const stage = stages[index]!;
        const error = stage.error_code === null ? '-' : `${stage.error_code}: ${stage.error_message}`;
        expect(line).toMatch(new RegExp(`^${stage.status} +${stage.inserted_at} +`));
        expect(line.endsWith(error)).toBe(true);
      });
    });

    it('reports an unknown attempt (404) and names an id that is not a uuid', async () => {
      const [missing, malformed] = await Promise.all([
        read('attempts', 'get', unknownId),
        read('attempts', 'get', '42'),
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(
        `error: getCollectionAttempt: not found (HTTP 404): collection attempt ${unknownId} not found\n`,
      );
      expect(malformed.stderr).toBe('error: <attempt-id>: must be a uuid (8-4-4-4-12 hex digits)\n');
    });
  });

  describe('metrics', () => {
    const [from, to] = ['2025-05-01T00:00:00Z', '2025-06-01T00:00:00Z'];

    /** Cents settled and failed, summed straight from the seeded documents. */
    function sums(documents: readonly Counted[], bankAccountId: string) {
      const selected = documents.filter(
        (d) =>
          d.bank_account_id === bankAccountId &&
          Date.parse(d.timestamp) >= Date.parse(from) &&
          Date.parse(d.timestamp) < Date.parse(to),
      );
      const total = (status: string) =>
        selected.filter((d) => d.status === status).reduce((sum, d) => sum + d.amount.amount, 0);
      return { settled: total('settled'), failed: total('failed') };
    }

    it("prints a bank account's totals over the window, as JSON and as a table in reais", async () => {
      const bankAccountId = stack.sandbox.state.world.bankAccountIds[0]!;
      const expected = {
        collecting_document: sums(data().collectingDocuments, bankAccountId),
        payment_document: sums(data().transfers, bankAccountId),
      };
      expect(expected.payment_document.settled).toBeGreaterThan(0);
      const window = ['--bank-account', bankAccountId, '--from', from, '--to', to];
      const [json, table] = await Promise.all([
        read('metrics', ...window),
        read('metrics', ...window, '--table'),
      ]);
      expect(printedJson(json)).toEqual(expected);
      expect(tableOf(table)).toEqual([
        expect.stringMatching(/^DOCUMENTS +SETTLED +FAILED$/),
        expect.stringMatching(
          new RegExp(
            `^collecting_document +${reaisCell(expected.collecting_document.settled)} +${reaisCell(expected.collecting_document.failed)}$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^payment_document +${reaisCell(expected.payment_document.settled)} +${reaisCell(expected.payment_document.failed)}$`,
          ),
        ),
      ]);
    });

    it('requires the window, names a reversed one, and reports an unknown bank account and refused credentials', async () => {
      const [noTo, reversed, unknown, unauthorized] = await Promise.all([
        read('metrics', '--bank-account', unknownId, '--from', from),
        read('metrics', '--bank-account', unknownId, '--from', to, '--to', from),
        read('metrics', '--bank-account', unknownId, '--from', from, '--to', to),
        runCli(['metrics', '--bank-account', unknownId, '--from', from, '--to', to], {
          ...env,
          BANK_CLIENT_SECRET: 'wrong',
        }),
      ]);
      expect(noTo.stderr).toMatch(/error: required option '--to <date-time>' not specified/);
      expect(reversed.stderr).toBe('error: --to: must not be earlier than --from\n');
      expect(unknown.stderr).toBe(
        `error: getMetrics: not found (HTTP 404): bank account ${unknownId} not found\n`,
      );
      expect(unauthorized.stderr).toMatch(/^error: getMetrics: .*HTTP 401 UNAUTHORIZED.*BANK_CLIENT_SECRET/);
      for (const result of [noTo, reversed, unknown, unauthorized]) expect(result.code).toBe(1);
    });
  });
});
