import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { ReceivableRefund } from '../../src/bank/schemas/refund.js';
import type { TransferDocument } from '../../src/bank/schemas/transfer.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { brl, literal, printedJson, printedLines, reaisCell } from '../helpers/cli-output.js';
import { cliEnvFor } from '../helpers/cli-env.js';
import { byTimeThenId, fixedNow, ids } from '../helpers/data-sandbox.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const everything = ['--from', '2025-01-01T00:00:00Z', '--to', '2025-07-01T00:00:00Z'];

function refusedWith(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
}

const inWindow = (timestamp: string, from?: string, to?: string) =>
  (from === undefined || Date.parse(timestamp) >= Date.parse(from)) &&
  (to === undefined || Date.parse(timestamp) < Date.parse(to));

describe('bankflow refunds, transfers and attempts lists', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  const read = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  /** The independent answers: the seeded records a filter selects, in the lists' order. */
  function refunds(select: (refund: ReceivableRefund) => boolean = () => true): ReceivableRefund[] {
    return stack.sandbox.state.bankData.refunds.filter(select).sort(byTimeThenId((r) => r.timestamp));
  }
  function transfers(select: (transfer: TransferDocument) => boolean): TransferDocument[] {
    return stack.sandbox.state.bankData.transfers.filter(select).sort(byTimeThenId((t) => t.timestamp));
  }
  function attempts(select: (attempt: CollectionAttempt) => boolean): CollectionAttempt[] {
    return [...stack.sandbox.state.bankData.attempts.values()]
      .filter(select)
      .sort(byTimeThenId((a) => a.timestamp));
  }

  describe('refunds list', () => {
    it('prints one page as {data, metadata}, and the next page from its metadata.after', async () => {
      const expected = ids(refunds());
      const first = printedJson(await read('refunds', 'list')) as {
        data: ReceivableRefund[];
        metadata: { before: string | null; after: string; has_next: boolean };
      };
      expect(Object.keys(first).sort()).toEqual(['data', 'metadata']);
      expect(ids(first.data)).toEqual(expected.slice(0, 50));
      expect(first.metadata).toMatchObject({ before: null, has_next: true });
      expect(first.data[0]).toEqual(refunds()[0]);

      const second = printedJson(await read('refunds', 'list', '--after', first.metadata.after)) as {
        data: ReceivableRefund[];
      };
      expect(ids(second.data)).toEqual(expected.slice(50, 100));
    });

    it('--all pages through every refund of a virtual account (more than one page)', async () => {
      const account = stack.sandbox.state.world.virtualAccountIds
        .map((id) => ({ id, refunds: refunds((r) => r.virtual_account_id === id) }))
        .sort((a, b) => b.refunds.length - a.refunds.length)[0]!;
      expect(account.refunds.length).toBeGreaterThan(50);

      const listed = printedJson(await read('refunds', 'list', '--virtual-account', account.id, '--all')) as {
        data: ReceivableRefund[];
      };
      expect(Object.keys(listed)).toEqual(['data']);
      expect(ids(listed.data)).toEqual(ids(account.refunds));
    });

    it('filters by window and reconciliation id', async () => {
      const [from, to] = ['2025-05-20T00:00:00Z', '2025-06-01T00:00:00Z'];
      const windowed = refunds((r) => inWindow(r.timestamp, from, to));
      expect(windowed.length).toBeGreaterThan(0);
      const reconciled = refunds().find((r) => r.reconciliation_id !== null)!;
      const [byWindow, byReconciliation] = await Promise.all([
        read('refunds', 'list', '--from', from, '--to', to, '--all'),
        read('refunds', 'list', '--reconciliation', reconciled.reconciliation_id!),
      ]);
      expect(ids((printedJson(byWindow) as { data: ReceivableRefund[] }).data)).toEqual(ids(windowed));
      expect(ids((printedJson(byReconciliation) as { data: ReceivableRefund[] }).data)).toEqual(
        ids(refunds((r) => r.reconciliation_id === reconciled.reconciliation_id)),
      );
    });

    it('--table prints a header and one aligned line per refund, amounts in reais', async () => {
      const expected = refunds().slice(0, 50);
      const result = await read('refunds', 'list', '--table');
      const [header, ...rows] = printedLines(result);
      expect(header).toMatch(/^ID +TIMESTAMP +STATUS +AMOUNT +END TO END ID +DESCRIPTION$/);
      expect(rows).toHaveLength(50);
      rows.forEach((row, index) => {
        const refund = expected[index]!;
        expect(row).toMatch(
          new RegExp(
            `^${refund.id} +${literal(refund.timestamp)} +${refund.status} +${reaisCell(refund.amount.amount)} +${refund.end_to_end_id} +${literal(refund.description)}$`,
          ),
        );
      });
      const amountEnd = header!.indexOf('AMOUNT') + 'AMOUNT'.length;
      for (const row of rows) expect(row[amountEnd - 1]).toMatch(/\d/);
      expect(result.stderr).toMatch(/^more records: --after [A-Za-z0-9_-]+ for the next page, or --all\n$/);
    });

    it('names the option whose value is wrong, and the cursors used together', async () => {
      const [badFrom, badAccount, reversed, bothCursors, allBefore] = await Promise.all([
        read('refunds', 'list', '--from', 'yesterday'),
        read('refunds', 'list', '--virtual-account', 'va-1'),
        read('refunds', 'list', '--from', '2025-06-01T00:00:00Z', '--to', '2025-05-01T00:00:00Z'),
        read('refunds', 'list', '--before', 'abc', '--after', 'def'),
        read('refunds', 'list', '--before', 'abc', '--all'),
      ]);
      expect(badFrom.stderr).toBe(
        'error: --from: must be an ISO 8601 date-time, e.g. 2025-06-01T00:00:00Z\n',
      );
      expect(badAccount.stderr).toBe('error: --virtual-account: must be a uuid (8-4-4-4-12 hex digits)\n');
      expect(reversed.stderr).toBe('error: --to: must not be earlier than --from\n');
      expect(bothCursors.stderr).toBe('error: --before: cannot be used with --after; pass only one cursor\n');
      expect(allBefore.stderr).toMatch(/^error: --all: /);
      for (const result of [badFrom, badAccount, reversed, bothCursors, allBefore]) {
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
      }
    });

    it('reports a cursor the bank refuses, and credentials it refuses', async () => {
      const [foreignCursor, unauthorized] = await Promise.all([
        read('refunds', 'list', '--after', 'bm90LWEtY3Vyc29y'),
        runCli(['refunds', 'list'], { ...env, BANK_CLIENT_SECRET: 'wrong' }),
      ]);
      refusedWith(foreignCursor, /^error: listReceivableRefunds: .*after: is not a cursor of this list/);
      refusedWith(unauthorized, /^error: listReceivableRefunds: .*HTTP 401 UNAUTHORIZED.*BANK_CLIENT_SECRET/);
    });
  });

  describe('transfers list', () => {
    it('--all lists every transfer in a status within the window (several pages)', async () => {
      const expected = transfers(
        (t) => t.status === 'settled' && inWindow(t.timestamp, everything[1], everything[3]),
      );
      expect(expected.length).toBeGreaterThan(100);
      const listed = printedJson(
        await read('transfers', 'list', ...everything, '--status', 'settled', '--all'),
      ) as { data: TransferDocument[] };
      expect(ids(listed.data)).toEqual(ids(expected));
    });

    it('filters by virtual accounts, external id and reconciliation id', async () => {
      const sample = stack.sandbox.state.bankData.transfers.find((t) => t.reconciliation_id !== null)!;
      const [out, into, external, reconciled] = await Promise.all([
        read(
          'transfers',
          'list',
          ...everything,
          '--from-virtual-account',
          sample.from_virtual_account_id,
          '--all',
        ),
        read(
          'transfers',
          'list',
          ...everything,
          '--to-virtual-account',
          sample.to_virtual_account_id,
          '--all',
        ),
        read('transfers', 'list', ...everything, '--external-id', sample.external_id),
        read('transfers', 'list', ...everything, '--reconciliation', sample.reconciliation_id!),
      ]);
      const listed = (result: CliResult) => ids((printedJson(result) as { data: TransferDocument[] }).data);
      expect(listed(out)).toEqual(
        ids(transfers((t) => t.from_virtual_account_id === sample.from_virtual_account_id)),
      );
      expect(listed(into)).toEqual(
        ids(transfers((t) => t.to_virtual_account_id === sample.to_virtual_account_id)),
      );
      expect(listed(external)).toEqual([sample.id]);
      expect(listed(reconciled)).toEqual(
        ids(transfers((t) => t.reconciliation_id === sample.reconciliation_id)),
      );
    });

    it('--all --table prints a header and one line per transfer', async () => {
      const expected = transfers((t) => t.status === 'failed');
      const result = await read('transfers', 'list', ...everything, '--status', 'failed', '--all', '--table');
      expect(result.stderr).toBe('');
      const [header, ...rows] = printedLines(result);
      expect(header).toMatch(/^ID +TIMESTAMP +STATUS +AMOUNT +EXTERNAL ID +DESCRIPTION$/);
      expect(rows.map((row) => row.split(/ +/)[0])).toEqual(ids(expected));
      rows.forEach((row, index) => {
        expect(row).toContain(` failed  `);
        expect(row).toContain(`${brl(expected[index]!.amount.amount)}  ${expected[index]!.external_id}`);
      });
    });

    it('requires the window the bank requires, and names a status it does not know', async () => {
      const [noWindow, badStatus] = await Promise.all([
        read('transfers', 'list', '--to', '2025-07-01T00:00:00Z'),
        read('transfers', 'list', ...everything, '--status', 'paid'),
      ]);
      refusedWith(noWindow, /error: required option '--from <date-time>' not specified/);
      expect(badStatus.stderr).toBe(
        'error: --status: must be one of created, confirmed, settled, refunded, reversed, failed\n',
      );
      expect(badStatus.code).toBe(1);
    });
  });

  describe('attempts list', () => {
    it('--all with --limit pages through every attempt of an entity', async () => {
      const entity = stack.sandbox.state.world.entityIds
        .map((id) => ({ id, attempts: attempts((a) => a.entity_id === id) }))
        .sort((a, b) => b.attempts.length - a.attempts.length)[0]!;
      expect(entity.attempts.length).toBeGreaterThan(100);

      const [page, all] = await Promise.all([
        read('attempts', 'list', '--entity', entity.id, '--limit', '100'),
        read('attempts', 'list', '--entity', entity.id, '--limit', '100', '--all'),
      ]);
      const first = printedJson(page) as { data: CollectionAttempt[]; metadata: { has_next: boolean } };
      expect(ids(first.data)).toEqual(ids(entity.attempts).slice(0, 100));
      expect(first.metadata.has_next).toBe(true);
      expect(ids((printedJson(all) as { data: CollectionAttempt[] }).data)).toEqual(ids(entity.attempts));
    });

    it('filters by recurrence, collection and window', async () => {
      const sample = [...stack.sandbox.state.bankData.attempts.values()][0]!;
      const [from, to] = ['2025-05-01T00:00:00Z', '2025-05-15T00:00:00Z'];
      const [byRecurrence, byCollection, byWindow] = await Promise.all([
        read('attempts', 'list', '--recurrence', sample.recurrence_id!, '--all'),
        read('attempts', 'list', '--collection', sample.collection_id),
        read('attempts', 'list', '--from', from, '--to', to, '--all'),
      ]);
      const listed = (result: CliResult) => ids((printedJson(result) as { data: CollectionAttempt[] }).data);
      expect(listed(byRecurrence)).toEqual(ids(attempts((a) => a.recurrence_id === sample.recurrence_id)));
      expect(listed(byCollection)).toEqual(ids(attempts((a) => a.collection_id === sample.collection_id)));
      const windowed = ids(attempts((a) => inWindow(a.timestamp, from, to)));
      expect(windowed.length).toBeGreaterThan(0);
      expect(listed(byWindow)).toEqual(windowed);
    });

    it('--table prints a header and one line per attempt', async () => {
      const expected = attempts(() => true).slice(0, 50);
      const [header, ...rows] = printedLines(await read('attempts', 'list', '--table'));
      expect(header).toMatch(/^ID +TIMESTAMP +STATUS +TYPE +DUE +EXTERNAL ID +END TO END ID$/);
      expect(rows.map((row) => row.split(/ +/).slice(0, 3))).toEqual(
        expected.map((a) => [a.id, a.timestamp, a.status]),
      );
    });

    it('names a bad --limit and a bad --recurrence', async () => {
      const [zero, fraction, recurrence] = await Promise.all([
        read('attempts', 'list', '--limit', '0'),
        read('attempts', 'list', '--limit', '2.5'),
        read('attempts', 'list', '--recurrence', 'rec-1'),
      ]);
      expect(zero.stderr).toBe('error: --limit: must be a whole number of at least 1\n');
      expect(fraction.stderr).toBe('error: --limit: must be a whole number of at least 1\n');
      expect(recurrence.stderr).toBe('error: --recurrence: must be a uuid (8-4-4-4-12 hex digits)\n');
      for (const result of [zero, fraction, recurrence]) expect(result.code).toBe(1);
    });
  });
});
