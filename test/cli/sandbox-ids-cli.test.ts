import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import type { IdListing } from '../../devkit/sandbox/id-listing.js';
import { runCli } from '../helpers/cli.js';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { printedJson, printedLines } from '../helpers/cli-output.js';
import { sandboxCredentials, testLogger } from '../helpers/stack.js';
import { startStubBank } from '../helpers/stub-bank.js';

const startSeeded = (now?: Date) =>
  startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 42,
    now,
    credentials: sandboxCredentials,
    logger: testLogger(),
    access: { controlToken: 'ids-token' },
  });

const idsOf = (listed: { id: string }[]) => listed.map((item) => item.id);

describe('bankflow sandbox ids', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  const run = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    sandbox = await startSeeded();
    env = {
      BANK_BASE_URL: sandbox.url,
      BANK_CLIENT_ID: sandboxCredentials.clientId,
      BANK_CLIENT_SECRET: sandboxCredentials.clientSecret,
      SANDBOX_CONTROL_TOKEN: 'ids-token',
    };
  });
  afterAll(() => sandbox?.stop());

  it(
    'prints every id the sandbox holds, by kind, as JSON',
    async () => {
      const listing = printedJson(await run('sandbox', 'ids')) as IdListing;
      const { state } = sandbox;
      expect(listing.seed).toBe(42);
      expect(idsOf(listing.entities)).toEqual(state.world.entityIds);
      expect(idsOf(listing.virtual_accounts)).toEqual(state.world.virtualAccountIds);
      expect(idsOf(listing.bank_accounts)).toEqual(state.world.bankAccountIds);
      expect(idsOf(listing.boletos)).toEqual([...state.boletos.keys()]);
      expect(idsOf(listing.cards)).toEqual([...state.bankData.cards.keys()]);
      expect(idsOf(listing.card_purchases)).toEqual([...state.bankData.purchasesByEndToEndId.keys()]);
      expect(idsOf(listing.recurrences)).toEqual([...state.bankData.recurrences.keys()]);
      expect(idsOf(listing.attempts)).toEqual([...state.bankData.attempts.keys()]);
      expect(idsOf(listing.participants)).toEqual(state.biometrics.participants.map((p) => p.id));
      expect([listing.devices, listing.enrollments, listing.payments]).toEqual([[], [], []]);
      const boleto = state.boletos.values().next().value;
      expect(listing.boletos[0]?.about).toBe(`${boleto?.status}, ${boleto?.external_id}`);
    },
    cliTestTimeoutMs,
  );

  it(
    'names each record as the commands take it: a listed card and a listed card purchase are found',
    async () => {
      const cardId = (await run('sandbox', 'ids', 'cards')).stdout.split('\n')[0] ?? '';
      const endToEndId = (await run('sandbox', 'ids', 'card-purchases')).stdout.split('\n')[0] ?? '';
      expect(printedJson(await run('card', 'get', cardId))).toMatchObject({ id: cardId });
      expect(printedJson(await run('card', 'purchase', endToEndId))).toMatchObject({
        end_to_end_id: endToEndId,
      });
    },
    cliTestTimeoutMs,
  );

  it(
    'one kind prints its ids one per line, and lists devices once the bank created one',
    async () => {
      const created = await fetch(`${sandbox.url}/biometrics/devices`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString('base64')}`,
        },
        body: JSON.stringify({ fingerprint: 'ids-test', counterparty_tax_number: '12345678909' }),
      });
      const device = ((await created.json()) as { data: { id: string } }).data;
      const devices = await run('sandbox', 'ids', 'devices');
      expect(devices).toEqual({ code: 0, stdout: `${device.id}\n`, stderr: '' });

      const attempts = await run('sandbox', 'ids', 'attempts');
      expect(attempts.stdout).toBe(
        [...sandbox.state.bankData.attempts.keys()].map((id) => `${id}\n`).join(''),
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '--table prints one row per id under KIND, ID and ABOUT',
    async () => {
      const lines = printedLines(await run('sandbox', 'ids', 'bank-accounts', '--table'));
      expect(lines[0]).toMatch(/^KIND\s+ID\s+ABOUT$/);
      expect(lines.slice(1)).toEqual(
        sandbox.state.world.bankAccountIds.map(
          (id) => `bank-accounts  ${id}  bank account: --bank-account of metrics`,
        ),
      );
    },
    cliTestTimeoutMs,
  );

  it(
    'refuses an unknown kind, naming the kinds',
    async () => {
      const result = await run('sandbox', 'ids', 'wallets');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^error: \[kind\]: must be one of entities, virtual-accounts, .*payments\n$/,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    'says that a bank without the control API is not the sandbox',
    async () => {
      const bank = await startStubBank((_, response) => response.writeHead(404).end('{}'));
      const url = bank.baseUrl;
      try {
        const result = await runCli(['sandbox', 'ids'], { ...env, BANK_BASE_URL: url });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`${url} has no sandbox control API (GET /sandbox/ids answered 404)`);
      } finally {
        await bank.stop();
      }
    },
    cliTestTimeoutMs,
  );

  it('keeps the seeded uuids of a seed whatever day the sandbox starts on (the README cites them)', async () => {
    const later = await startSeeded(new Date('2031-02-03T04:05:06Z'));
    const listingOf = async (bank: RunningSandbox) =>
      (
        (await (
          await fetch(`${bank.url}/sandbox/ids`, { headers: { authorization: 'Bearer ids-token' } })
        ).json()) as {
          data: IdListing;
        }
      ).data;
    try {
      const [then, now] = [await listingOf(later), await listingOf(sandbox)];
      const stable = [
        'entities',
        'virtual_accounts',
        'bank_accounts',
        'boletos',
        'cards',
        'recurrences',
      ] as const;
      for (const kind of [...stable, 'participants'] as const) {
        expect(idsOf(then[kind])).toEqual(idsOf(now[kind]));
      }
      // How many attempts a recurrence has depends on the day; the first of each is always in the past.
      const firstAttempts = (listing: IdListing) =>
        listing.recurrences.map(
          (recurrence) =>
            listing.attempts.find((attempt) =>
              attempt.about.includes(`, ${recurrence.about.split(', ')[1]},`),
            )?.id,
        );
      expect(firstAttempts(then)).toEqual(firstAttempts(now));
      expect(firstAttempts(now).filter(Boolean).length).toBeGreaterThan(40);
    } finally {
      await later.stop();
    }
  });
});
