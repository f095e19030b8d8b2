/**
 * Examples of every command, run against `npm start` (the sandbox bank, seed 42, whose seeded ids are
 * stable): docs/cli.md shows them under each command, and a test runs every line against a test stack, in
 * this order.
 * A line ends with `# exits N` when it is meant to exit N (`# exits N: text ...`: saying that text), and with
 * `# runs until Ctrl-C` when it is a server.
 * Keyed by command path; a group's `about` is the prose docs/cli.md puts before its commands.
 */
export interface CommandExamples {
  about?: string;
  lines: string[];
}

const bancoDoBrasil = '8e46451d-299a-45c4-aa45-25cac826ac79';
const entity = '46589325-554f-477f-b689-9d22e4b881cc';
const virtualAccount = 'd815e13b-fd7d-4e41-8e50-9ce011ac5341';
/** The demo's customer, enrolled and authorized: the first device and enrollment of a fresh sandbox. */
const demoDevice = '$(npx bankflow sandbox ids devices | head -n 1)';
const demoEnrollment = '$(npx bankflow sandbox ids enrollments | head -n 1)';
/** The device `device find-or-create` made last, not enrolled yet. */
const newDevice = '$(npx bankflow sandbox ids devices | tail -n 1)';

export const commandExamples: Record<string, CommandExamples> = {
  dev: { lines: ['npx bankflow dev   # runs until Ctrl-C: what npm start runs'] },
  cluster: {
    lines: [
      'npm run cluster   # builds, then runs the cluster until Ctrl-C',
      'CLUSTER_POSTGRES_BIN=/opt/none npx bankflow cluster   # exits 1: error: PostgreSQL is needed ...',
    ],
  },
  worker: { lines: ['npx bankflow worker   # runs until Ctrl-C'] },
  webhooks: { lines: ['npx bankflow webhooks   # runs until Ctrl-C'] },
  'codec-server': { lines: ['npx bankflow codec-server   # runs until Ctrl-C'] },
  api: { lines: ['npx bankflow api   # runs until Ctrl-C'] },
  'api-key create': {
    lines: [
      'npx bankflow api-key create checkout-backend   # a bf_dev_ key, then API_KEYS=checkout-backend:<sha256> npm start',
      'BANKFLOW_ENV=production npx bankflow api-key create checkout-backend   # a bf_live_ key, then its API_KEYS entry',
      "npx bankflow api-key create 'two words'        # exits 1: the key name must be 1 to 64 letters, ...",
    ],
  },
  sandbox: { lines: ['npx bankflow sandbox   # runs until Ctrl-C'] },
  'sandbox ids': {
    lines: [
      'npx bankflow sandbox ids --table                  # every id, with what it names',
      'npx bankflow sandbox ids cards                    # one kind, one id per line',
      'npx bankflow sandbox ids wallets                  # exits 1: [kind]: must be one of entities, ...',
    ],
  },
  'temporal-cli': { lines: ['npx bankflow temporal-cli   # ~/.cache/bankflow/temporal-cli-1.9.1/temporal'] },
  doctor: {
    lines: [
      'npx bankflow doctor --as starter                 # a pass or FAIL line per check, each failure with its fix',
      'npx bankflow doctor --as codec --json            # the same report for machines',
      'npx bankflow doctor --as api                     # Temporal, the bank and the merchant API keys',
      'BANKFLOW_ENV=production npx bankflow doctor      # exits 1: FAIL  configuration ...',
      'TEMPORAL_DEPLOYMENT_NAME=not-deployed-yet npx bankflow doctor --as worker   # exits 1: FAIL  worker deployment ...',
    ],
  },
  setup: {
    lines: [
      'npx bankflow setup   # [{name: "BankflowKind", type: "KEYWORD", outcome: "already registered"}, ...]',
    ],
  },
  'boleto cancel': {
    lines: [
      'npx bankflow boleto cancel 4b8ee4d6-91d2-4672-92c3-e39aa79a444d   # prints the boleto, status "cancelled"',
      'npx bankflow boleto cancel not-a-uuid                             # exits 1: <boleto-id>: must be a uuid ...',
    ],
  },
  demo: {
    lines: [
      'npx bankflow demo                     # exit 0 only if the payment settled',
      'npx bankflow demo --amount 1091       # exits 1 (the sandbox fails amounts ending in 91; 92: rejects)',
      'npx bankflow demo --ui-url https://temporal.example.com   # links to your own Temporal UI',
    ],
  },
  device: {
    about:
      "Pix biometrics follows the bank's biometric flow order, one command per step. The device and participants " +
      'commands read the bank directly; the enrollment and payment commands drive their workflows, so a second ' +
      '`start` with the same terms joins the running one, or prints the first answer with the `result` once it ' +
      'ended; other terms exit 1 naming the options that differ. `--assertion` takes the credential JSON a ' +
      "browser's WebAuthn call produced (the `fido_assertion` of the bank's register or authorize body, or that " +
      'whole body), so `register` and `authorize` need a browser: `bankflow demo` plays the whole journey with a ' +
      'software authenticator. The examples below pay with the device and enrollment the first demo created.',
    lines: [],
  },
  'device find-or-create': {
    lines: [
      'npx bankflow device find-or-create --fingerprint f1e2d3c4 --tax-number 12345678909 --name "Maria Silva"',
    ],
  },
  participants: {
    lines: [`npx bankflow participants --device ${demoDevice} --table   # enrolled ones first`],
  },
  'enrollment start': {
    lines: [
      `npx bankflow enrollment start --device ${newDevice} --participant ${bancoDoBrasil} ` +
        '--return-to https://shop.example.com/pix/enrolled --tax-number 12345678909   # redirectUrl: send the customer there',
    ],
  },
  'enrollment options': {
    lines: [
      `npx bankflow enrollment options --device ${newDevice} --participant ${bancoDoBrasil} --wait 5 --request-id reload-1 ` +
        '# exits 1 before the customer authorized at the bank: ... did not answer within 5 s; ask again with the same request id',
    ],
  },
  'enrollment register': {
    lines: [
      `npx bankflow enrollment register --device ${newDevice} --participant ${bancoDoBrasil} ` +
        "--assertion attestation.json   # exits 1 here: attestation.json is the browser's credential",
    ],
  },
  'enrollment get': {
    lines: [
      `npx bankflow enrollment get --device ${newDevice} --participant ${bancoDoBrasil}   # awaiting_account_holder_validation`,
    ],
  },
  'enrollment wait': {
    lines: [
      `npx bankflow enrollment wait --device ${demoDevice} --participant ${bancoDoBrasil}   # {"outcome": "authorized", ...}`,
    ],
  },
  'payment start': {
    lines: [
      `npx bankflow payment start --enrollment ${demoEnrollment} --device ${demoDevice} --amount 1050 ` +
        `--description "Pedido 1234" --entity ${entity} --virtual-account ${virtualAccount} --external-id order-1234`,
      `npx bankflow payment start --enrollment ${demoEnrollment} --device ${demoDevice} --amount 10,50 ` +
        `--description "Pedido 1235" --entity ${entity} --virtual-account ${virtualAccount} --external-id order-1235 ` +
        '# exits 1: --amount: must be a whole number of cents',
    ],
  },
  'payment options': {
    lines: ['npx bankflow payment options --external-id order-1234 --request-id reload-1'],
  },
  'payment authorize': {
    lines: [
      "npx bankflow payment authorize --external-id order-1234 --assertion assertion.json   # exits 1 here: the widget's assertion",
    ],
  },
  'payment get': {
    lines: ['npx bankflow payment get --external-id order-1234   # awaiting_consent, with its evidence'],
  },
  'payment wait': {
    lines: [
      'npx bankflow payment wait --external-id order-9999   # exits 1: no workflow payment:order-9999 in this namespace ...',
    ],
  },
  recurrence: {
    about:
      'Recurrences run as workflows: `recurrence create` validates the request field by field before calling the ' +
      'bank, and `sync attempts` does on demand what the attempts schedule does every 15 minutes.',
    lines: [],
  },
  'recurrence create': {
    lines: [
      'npx bankflow recurrence create --file docs/examples/recurrence.json   # prints {workflowId, externalId, recurrence}',
      'echo \'{"external_id": "contract-0043"}\' | npx bankflow recurrence create --file -   # exits 1: counterparty: Invalid input: expected object, received undefined',
    ],
  },
  'recurrence get': {
    lines: [
      'npx bankflow recurrence get --external-id contract-0042   # status, attempts, duplicates ignored, runs',
    ],
  },
  'recurrence cancel': {
    lines: [
      "npx bankflow recurrence cancel --external-id contract-0042 --reason ' '   # exits 1: --reason: required, a non-empty text saying why",
      "npx bankflow recurrence cancel --external-id contract-0042 --reason 'customer ended the contract'   # prints the result: outcome stopped",
      "npx bankflow recurrence cancel --external-id contract-0042 --reason 'again'   # exits 1: recurrence:contract-0042 has ended ...",
    ],
  },
  'sync attempts': {
    lines: [
      'npx bankflow sync attempts --from 2026-06-01T00:00:00Z --to 2026-06-02T00:00:00Z   # prints the summary',
    ],
  },
  card: {
    about:
      'The read commands (`card`, `refunds`, `transfers`, `attempts`, `metrics`) call the bank directly, no workflow ' +
      'involved, with the same `BANK_*` settings as the worker. They print JSON; a list prints one page as the ' +
      "bank's `{data, metadata}` (pass `metadata.after` back as `--after`, or `metadata.before` as `--before`), " +
      '`--all` follows the cursors and prints every record as `{data}`, and `--table` prints an aligned table with ' +
      'amounts in reais. Windows are half-open: `--from` is included, `--to` is not. The sandbox seeds its data ' +
      "around the day it starts; a card purchase's end-to-end id holds its date, so the example asks the sandbox.",
    lines: [],
  },
  'card get': { lines: ['npx bankflow card get dc0f1e98-b74e-42cc-b754-31fcc1247482 --table'] },
  'card purchase': {
    lines: ['npx bankflow card purchase $(npx bankflow sandbox ids card-purchases | head -n 1) --table'],
  },
  'card invoice': { lines: [`npx bankflow card invoice --entity ${entity} --table`] },
  'refunds list': {
    lines: [
      'npx bankflow refunds list --all --table',
      'npx bankflow refunds list --from yesterday       # exits 1: --from: must be an ISO 8601 date-time, e.g. ...',
      'npx bankflow refunds list --before X --after Y   # exits 1: --before: cannot be used with --after; ...',
    ],
  },
  'transfers list': {
    lines: [
      'npx bankflow transfers list --from 2026-01-01T00:00:00Z --to 2027-01-01T00:00:00Z --status failed',
    ],
  },
  'attempts list': { lines: [`npx bankflow attempts list --entity ${entity} --limit 100 --all`] },
  'attempts get': { lines: ['npx bankflow attempts get 913f38d2-cf65-493a-ba58-055073d2c183 --table'] },
  metrics: {
    lines: [
      'npx bankflow metrics --bank-account 2fec675b-0427-498c-963c-6a3fe4b2acc2 ' +
        '--from 2026-01-01T00:00:00Z --to 2027-01-01T00:00:00Z --table',
    ],
  },
  support: {
    about:
      "Support staff's questions, answered from Temporal's visibility store: a customer's journeys found by the keyed " +
      'hash of their CPF/CNPJ (never the number itself), the bank events no workflow claimed, and the journeys stuck ' +
      "in a state longer than the bank's windows allow; and the reset of a workflow whose task failed with a " +
      'nondeterminism error (docs/operations.md). What each state means, and what to do: docs/support.md.',
    lines: [],
  },
  'support find': {
    lines: [
      'npx bankflow support find --tax-number 123.456.789-09 --table   # the enrollment started above, with its link',
      'npx bankflow support find --tax-number 123   # exits 1: --tax-number: must be a CPF (11 digits) or a CNPJ (14 digits)',
    ],
  },
  'support unmatched': {
    lines: [
      'npx bankflow support unmatched --table   # age, category, ref id, event key and link of each open event',
    ],
  },
  'support resolve': {
    lines: [
      'npx bankflow support resolve webhook-unmatched:no-such-event --note "refunded by hand"   # exits 1: <event>: no unmatched webhook event',
    ],
  },
  'notifications list': {
    lines: [
      'npx bankflow notifications list --payment 6a1f0f7e-3c1e-4d0b-9d63-0c4f6f3b9a10 --table   # exits 1: no notification was sent for payment ...',
    ],
  },
  'notifications resend': {
    lines: [
      'npx bankflow notifications resend payment:6a1f0f7e-3c1e-4d0b-9d63-0c4f6f3b9a10:4   # exits 1: no notification was sent for payment ...',
    ],
  },
  'support stuck': {
    lines: ['npx bankflow support stuck --table   # stuck for, workflow, state, what it means, link'],
  },
  'support reset': {
    lines: [
      'npx bankflow support reset payment:order-9999 --dry-run   # exits 1: error: workflow payment:order-9999 does not exist ...',
    ],
  },
  'support links': {
    lines: ['npx bankflow support links --table   # the Temporal UI views to save, one per line'],
  },
  schedules: {
    about:
      'The Temporal Schedules of the scheduled jobs ([docs/scheduled-jobs.md](scheduled-jobs.md)). A job is named ' +
      'by its job id (`refund-report`) or its schedule id (`bankflow-refund-report`).',
    lines: [],
  },
  'schedules apply': {
    lines: [
      'npx bankflow schedules apply   # [{job, scheduleId, result: "created" | "updated" | "unchanged"}, ...]',
      'SCHEDULE_REPORTS_CRON="30 7 * * 1-5" npx bankflow schedules apply   # reports at 07:30 on weekdays: "updated"',
    ],
  },
  'schedules list': {
    lines: [
      'npx bankflow schedules list --table   # cadence, state (active, paused, outdated, missing), next run',
    ],
  },
  'schedules trigger': {
    lines: [
      'npx bankflow schedules trigger refund-report   # runs it now, up to now; prints {scheduleId, workflowId}',
    ],
  },
  'schedules backfill': {
    lines: [
      'npx bankflow schedules backfill transfer-report --from 2026-03-01T00:00:00Z --to 2026-03-02T12:00:00Z',
    ],
  },
  'schedules pause': { lines: ['npx bankflow schedules pause metrics-snapshot --note "bank maintenance"'] },
  'schedules unpause': { lines: ['npx bankflow schedules unpause metrics-snapshot'] },
  deployments: {
    about:
      'Each worker runs one version of the workflow code, named by a build id derived from it, in the Worker ' +
      "Deployment TEMPORAL_DEPLOYMENT_NAME (the task queue's name unless set). A deploy starts the new version's " +
      "workers beside the old ones, promotes it (after a ramp, if you like), asks the old version's long-lived runs to " +
      '`move`, and stops the old workers once `drained` says so ([docs/upgrading-workflows.md](upgrading-workflows.md)). In development each worker ' +
      'promotes its own version as it starts (WORKER_VERSION_PROMOTION). The examples act on the one version ' +
      '`npm start` runs.',
    lines: [],
  },
  'deployments list': {
    lines: [
      'npx bankflow deployments list --table   # build id, state (current, ramping, draining, drained), open runs, pollers',
      'npx bankflow deployments list --ids     # one build id per line, newest first',
    ],
  },
  'deployments promote': {
    lines: [
      'npx bankflow deployments promote $(npx bankflow deployments list --ids | head -n 1)   # {"current": ..., "previous": ...}',
      'npx bankflow deployments promote 0badbeef   # exits 1: error: <build-id>: no version 0badbeef in deployment ...',
    ],
  },
  'deployments ramp': {
    lines: [
      'npx bankflow deployments ramp $(npx bankflow deployments list --ids | head -n 1) --percent 10 ' +
        '# exits 1: error: <build-id>: ... is the current version already',
    ],
  },
  'deployments move': {
    lines: [
      'npx bankflow deployments move 0badbeef   # exits 1: error: <build-id>: no version 0badbeef in deployment ...',
    ],
  },
  'deployments drained': {
    lines: [
      'npx bankflow deployments drained $(npx bankflow deployments list --ids | head -n 1)   # exits 1: "drained": false ...',
    ],
  },
};
