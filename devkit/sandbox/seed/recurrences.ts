import type {
  CollectionAttempt,
  CollectionAttemptStatus,
} from '../../../src/bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../../src/bank/schemas/recurrence.js';
import { accountOwners, type AccountOwner } from './accounts.js';
import { buildAttempt } from './collection-attempts.js';
import { dayMs, minuteMs, payerIspbs, personName, plusMs, serial } from './generators.js';
import type { SeededRandom } from './random.js';
import type { SandboxWorld } from './world.js';

const monthsPerPeriod = { mnth: 1, qurt: 3, mian: 6, year: 12 } as const;

/** The next due date of a recurrence with this periodicity. */
export function nextDue(due: Date, periodicity: string): Date {
  const months = monthsPerPeriod[periodicity as keyof typeof monthsPerPeriod];
  if (months === undefined) return plusMs(due, 7 * dayMs);
  const next = new Date(due);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

const money = (amount: number | undefined) => (amount === undefined ? null : { amount, currency: 'BRL' });

/** The recurrence the bank records for a generate request; the sandbox approves every valid request. */
export function buildRecurrence(
  random: SeededRandom,
  request: GenerateRecurrenceRequest,
  owner: AccountOwner,
  world: SandboxWorld,
  at: Date,
  status = 'approved',
): Recurrence {
  const options = request.options ?? {};
  const retryPolicy = options.retry_policy ?? 'none';
  const authorization = options.authorization_type ?? 'app';
  const firstDue = request.first_payment?.due_detail?.due_date;
  const id = random.uuid();
  return {
    id,
    id_rec: random.uuid(),
    reference_id: random.uuid(),
    reference_type: 'recurrence_request',
    type: 'automatic',
    status,
    journey: authorization,
    description: request.description ?? '',
    contract_number: request.contract_number ?? '',
    external_id: request.external_id,
    txid: random.hex(32),
    periodicity: request.periodicity,
    retry_policy: retryPolicy,
    automatic_schedule: options.automatic_schedule ?? true,
    automated_attempt_retry: retryPolicy !== 'none',
    next_working_day: options.next_working_day ?? false,
    start_date: request.start_date,
    end_date: null,
    first_payment_date: firstDue ? `${firstDue}T00:00:00.000Z` : null,
    timestamp: at.toISOString(),
    minimum_amount: money(request.amounts?.minimum),
    maximum_amount: null,
    fixed_amount: null,
    first_payment_amount: money(request.first_payment?.amount),
    ispb: request.counterparty.bank_account.ispb,
    entity_id: owner.entityId,
    company_id: world.companyId,
    org_id: world.orgId,
    virtual_account_id: owner.virtualAccountId,
    bank_account_id: owner.bankAccountId,
    counterparty_id: random.uuid(),
    counterparty_bank_account_id: random.uuid(),
    counterparty_info_id: random.uuid(),
    counterparty_seq: '1',
    // A QR code is only issued when the payer authorizes by scanning one rather than in the bank app.
    qrcode:
      authorization === 'app'
        ? null
        : {
            hash: `00020101021226890014br.gov.bcb.pix2567pix.sandbox.bankflow.local/rec/${id}`,
            id: random.uuid(),
            type: 'dynamic',
          },
  };
}

const plans = ['Plano mensal', 'Assinatura semanal', 'Mensalidade escolar', 'Clube de assinatura'];

function seedRequest(random: SeededRandom, index: number, owner: AccountOwner, start: Date) {
  const minimum = random.int(1_000, 50_000);
  const request: GenerateRecurrenceRequest = {
    amounts: { minimum },
    contract_number: serial('contract', index),
    counterparty: {
      name: personName(random),
      tax_number: random.digits(11),
      bank_account: {
        ispb: random.pick(payerIspbs),
        branch: random.digits(4),
        number: random.digits(8),
        digit: random.digits(1),
      },
    },
    description: random.pick(plans),
    external_id: serial('recurrence', index),
    first_payment: { amount: minimum, due_detail: { due_date: start.toISOString().slice(0, 10) } },
    options: {
      authorization_type: 'app',
      automatic_schedule: true,
      next_working_day: true,
      retry_policy: random.chance(0.6) ? '3r_7d' : 'none',
    },
    periodicity: random.chance(0.4) ? 'week' : 'mnth',
    start_date: start.toISOString(),
    virtual_account_id: owner.virtualAccountId,
  };
  return request;
}

/**
 * The attempts of one recurrence up to `now`: a collection per period, scheduled some days before its due
 * date and tried on the due date; a failed try is retried on the following days when the policy allows
 * (up to 3 retries), and a try that is still ahead stays `created`. A cancelled recurrence stopped after two.
 */
function seedAttempts(random: SeededRandom, recurrence: Recurrence, now: Date): CollectionAttempt[] {
  const attempts: CollectionAttempt[] = [];
  const tries = recurrence.retry_policy === '3r_7d' ? 4 : 1;
  const cancelled = recurrence.status === 'cancelled';
  let due = new Date(recurrence.start_date);
  for (let collection = 0; !cancelled || collection < 2; collection++) {
    const scheduledAt = plusMs(due, -random.int(2, 8) * dayMs);
    if (scheduledAt >= now) break;
    const base = { recurrence, collectionId: random.uuid(), txid: random.hex(32), scheduledAt, dueDate: due };
    let at = plusMs(due, random.int(6 * 60, 10 * 60) * minuteMs);
    let previous = scheduledAt;
    for (let attempt = 0; attempt < tries; attempt++) {
      const retry = attempt > 0;
      if (at >= now) {
        const status: CollectionAttemptStatus = cancelled ? 'cancelled' : 'created';
        attempts.push(buildAttempt(random, { ...base, at: previous, status, retry }));
        break;
      }
      const settled = random.chance(retry ? 0.6 : 0.8);
      attempts.push(buildAttempt(random, { ...base, at, status: settled ? 'settled' : 'failed', retry }));
      if (settled) break;
      previous = at;
      at = plusMs(at, random.int(1, 2) * dayMs);
    }
    due = nextDue(due, recurrence.periodicity);
  }
  return attempts;
}

/**
 * Recurrences started over the last twelve weeks, each with the request that generated it, most approved, a
 * few cancelled or rejected, with hundreds of collection attempts between them.
 */
export function seedRecurrences(
  random: SeededRandom,
  world: SandboxWorld,
  now: Date,
  count: number,
): {
  recurrences: { recurrence: Recurrence; request: GenerateRecurrenceRequest }[];
  attempts: CollectionAttempt[];
} {
  const owners = accountOwners(world);
  const recurrences: { recurrence: Recurrence; request: GenerateRecurrenceRequest }[] = [];
  const attempts: CollectionAttempt[] = [];
  for (let index = 0; index < count; index++) {
    // Each recurrence draws from its own stream: how many attempts it has depends on now, its id must not.
    const own = random.fork();
    const owner = own.pick(owners);
    const startDay = Math.floor(now.getTime() / dayMs) - own.int(14, 84);
    const start = new Date(startDay * dayMs);
    const status = index % 10 === 7 ? 'cancelled' : index % 10 === 9 ? 'rejected' : 'approved';
    const created = plusMs(start, -own.int(1, 5) * dayMs);
    const request = seedRequest(own, index, owner, start);
    const recurrence = buildRecurrence(own, request, owner, world, created, status);
    recurrences.push({ recurrence, request });
    if (status !== 'rejected') attempts.push(...seedAttempts(own, recurrence, now));
  }
  return { recurrences, attempts };
}
