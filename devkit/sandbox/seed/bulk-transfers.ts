import type { SandboxTransferDocument, TransferStatus } from '../../../src/bank/schemas/transfer.js';
import { accountOwners } from './accounts.js';
import { endToEndId, minuteMs, plusMs, sandboxBankIspb, serial } from './generators.js';
import type { SeededRandom } from './random.js';
import type { SandboxWorld } from './world.js';

export interface BulkTransfersRequest {
  count: number;
  from: Date;
  to: Date;
  /** Cycled through in order. */
  statuses: readonly TransferStatus[];
  /** Numbers the external ids on from the transfers the sandbox already holds, so they stay unique. */
  firstIndex: number;
}

/** Statuses in which the money moved, so the transfer carries a transaction date. */
const moved: ReadonlySet<TransferStatus> = new Set(['settled', 'refunded', 'reversed']);

/**
 * Many cash-out transfers at once, spread evenly over [from, to), from the merchant's own accounts to outside
 * ones: volume for reports and benchmarks beyond the seeded 400.
 */
export function bulkTransfers(
  random: SeededRandom,
  world: SandboxWorld,
  request: BulkTransfersRequest,
): SandboxTransferDocument[] {
  const owners = accountOwners(world);
  const step = (request.to.getTime() - request.from.getTime()) / request.count;
  return Array.from({ length: request.count }, (_, index) => {
    const owner = random.pick(owners);
    const requested = plusMs(request.from, Math.floor(index * step));
    const status = request.statuses[index % request.statuses.length] as TransferStatus;
    const processed = plusMs(requested, minuteMs);
    return {
      id: random.uuid(),
      amount: { amount: random.int(500, 2_000_000), currency: 'BRL' },
      status,
      from_virtual_account_id: owner.virtualAccountId,
      to_virtual_account_id: random.uuid(),
      bank_account_id: owner.bankAccountId,
      entity_id: owner.entityId,
      external_id: serial('bulk-payout', request.firstIndex + index),
      reconciliation_id: null,
      end_to_end_id: status === 'created' ? null : endToEndId(random, 'E', sandboxBankIspb, requested),
      description: 'Pagamento em lote',
      transaction_date: moved.has(status) ? processed.toISOString() : null,
      timestamp: requested.toISOString(),
      inserted_at: requested.toISOString(),
      updated_at: (status === 'created' ? requested : processed).toISOString(),
    };
  });
}
