import type { SandboxTransferDocument, TransferStatus } from '../../../src/bank/schemas/transfer.js';
import { accountOwners } from './accounts.js';
import {
  dayMs,
  earliest,
  endToEndId,
  instantBetween,
  minuteMs,
  plusMs,
  sandboxBankIspb,
  serial,
  weighted,
} from './generators.js';
import type { SeededRandom } from './random.js';
import type { SandboxWorld } from './world.js';

const statusWeights: [TransferStatus, number][] = [
  ['settled', 55],
  ['refunded', 12],
  ['failed', 10],
  ['reversed', 10],
  ['confirmed', 8],
  ['created', 5],
];

/** Statuses in which the money moved, so the transfer carries a transaction date. */
const moved: ReadonlySet<TransferStatus> = new Set(['settled', 'refunded', 'reversed']);

const descriptions = [
  'Pagamento a fornecedor',
  'Repasse a parceiro',
  'Reembolso de despesas',
  'Folha de pagamento',
];

/**
 * Cash-out transfers requested over the last 60 days from the merchant's virtual accounts: about a third go
 * to another of its own accounts, the rest to a small pool of outside accounts, so every filter finds
 * several.
 */
export function seedTransfers(
  random: SeededRandom,
  world: SandboxWorld,
  now: Date,
  count: number,
): SandboxTransferDocument[] {
  const owners = accountOwners(world);
  const outsideAccounts = Array.from({ length: 12 }, () => random.uuid());
  const transfers: SandboxTransferDocument[] = [];
  for (let index = 0; index < count; index++) {
    const owner = random.pick(owners);
    const internal = random.chance(0.3);
    const to = internal
      ? random.pick(owners.filter((other) => other !== owner)).virtualAccountId
      : random.pick(outsideAccounts);
    const requested = instantBetween(random, plusMs(now, -60 * dayMs), plusMs(now, -60 * minuteMs));
    const status = weighted(random, statusWeights);
    const processed = earliest(plusMs(requested, random.int(1, 30) * minuteMs), now);
    transfers.push({
      id: random.uuid(),
      amount: { amount: random.int(500, 2_000_000), currency: 'BRL' },
      status,
      from_virtual_account_id: owner.virtualAccountId,
      to_virtual_account_id: to,
      bank_account_id: owner.bankAccountId,
      entity_id: owner.entityId,
      external_id: serial('payout', index),
      reconciliation_id: random.chance(0.6) ? random.uuid() : null,
      end_to_end_id: status === 'created' ? null : endToEndId(random, 'E', sandboxBankIspb, requested),
      description: random.pick(descriptions),
      transaction_date: moved.has(status) ? processed.toISOString() : null,
      timestamp: requested.toISOString(),
      inserted_at: requested.toISOString(),
      updated_at: (status === 'created' ? requested : processed).toISOString(),
    });
  }
  return transfers;
}
