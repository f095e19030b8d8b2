import type { CollectingDocument } from '../../../src/bank/schemas/collecting-document.js';
import { accountOwners } from './accounts.js';
import { dayMs, endToEndId, instantBetween, minuteMs, payerIspbs, plusMs, weighted } from './generators.js';
import type { SeededRandom } from './random.js';
import type { SandboxWorld } from './world.js';

/**
 * A Pix cash-in as the sandbox keeps it: the webhook's data plus the bank account and instant metrics need.
 */
export type SeededCollectingDocument = CollectingDocument & {
  bank_account_id: string;
  virtual_account_id: string;
  entity_id: string;
  timestamp: string;
};

const descriptions = ['Cobrança Pix', 'Pagamento de pedido', 'Mensalidade', 'Assinatura'];

/** Pix cash-ins received over the last 60 days: mostly settled, some failed, a few still pending. */
export function seedCollectingDocuments(
  random: SeededRandom,
  world: SandboxWorld,
  now: Date,
  count: number,
): SeededCollectingDocument[] {
  const owners = accountOwners(world);
  const documents: SeededCollectingDocument[] = [];
  for (let index = 0; index < count; index++) {
    const owner = random.pick(owners);
    const received = instantBetween(random, plusMs(now, -60 * dayMs), plusMs(now, -60 * minuteMs));
    const status = weighted(random, [
      ['settled', 85],
      ['failed', 10],
      ['created', 5],
    ] as const);
    documents.push({
      id: random.uuid(),
      end_to_end_id: endToEndId(random, 'E', random.pick(payerIspbs), received),
      status,
      amount: { amount: random.int(1_000, 800_000), currency: 'BRL' },
      transaction_date: status === 'settled' ? received.toISOString() : null,
      virtual_account_id: owner.virtualAccountId,
      entity_id: owner.entityId,
      bank_account_id: owner.bankAccountId,
      description: random.pick(descriptions),
      timestamp: received.toISOString(),
      inserted_at: received.toISOString(),
      updated_at: received.toISOString(),
    });
  }
  return documents;
}
