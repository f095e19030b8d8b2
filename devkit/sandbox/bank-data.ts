import type { CardInvoice } from '../../src/bank/schemas/card-invoice.js';
import type { CardPurchaseDocument } from '../../src/bank/schemas/card-purchase.js';
import type { Card } from '../../src/bank/schemas/card.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../src/bank/schemas/recurrence.js';
import type { ReceivableRefund } from '../../src/bank/schemas/refund.js';
import type { SandboxTransferDocument } from '../../src/bank/schemas/transfer.js';
import { AttemptStore } from './attempt-store.js';
import type { CreatedUnderExternalId } from './repeated-create.js';
import { seedCards } from './seed/cards.js';
import { seedCollectingDocuments, type SeededCollectingDocument } from './seed/collecting-documents.js';
import { seededRandomFor, type SeededRandom } from './seed/random.js';
import { seedRecurrences } from './seed/recurrences.js';
import { seedRefunds } from './seed/refunds.js';
import { seedTransfers } from './seed/transfers.js';
import type { SandboxWorld } from './seed/world.js';

/** How much of each kind the sandbox seeds: enough to page through (50 per page) in every list. */
export const seededCounts = {
  transfers: 400,
  collectingDocuments: 300,
  refunds: 150,
  recurrences: 60,
} as const;

/**
 * The bank's data side: cash-out transfers, Pix cash-ins and their refunds, recurrences and their collection
 * attempts, cards with invoices and purchases. Built from the seed and `now`, rebuilt on every state reset.
 */
export class BankData {
  readonly transfers: SandboxTransferDocument[];
  readonly collectingDocuments: SeededCollectingDocument[];
  readonly refunds: ReceivableRefund[];
  readonly recurrences = new Map<string, Recurrence>();
  /**
   * Recurrences by the merchant's external_id, unique across the organisation as the attempts that carry it
   * are, each with the generate request that made it.
   */
  private readonly recurrencesByExternalId = new Map<string, CreatedUnderExternalId<Recurrence>>();
  readonly attempts = new AttemptStore();
  readonly cards: Map<string, Card>;
  readonly invoices: CardInvoice[];
  readonly purchasesByEndToEndId: Map<string, CardPurchaseDocument>;
  /** Ids of records created at runtime continue a seeded stream, so a replayed test sees the same ids. */
  readonly random: SeededRandom;

  constructor(
    seed: number,
    readonly world: SandboxWorld,
    now: Date,
  ) {
    this.transfers = seedTransfers(seededRandomFor(seed, 'transfers'), world, now, seededCounts.transfers);
    this.collectingDocuments = seedCollectingDocuments(
      seededRandomFor(seed, 'collecting-documents'),
      world,
      now,
      seededCounts.collectingDocuments,
    );
    this.refunds = seedRefunds(
      seededRandomFor(seed, 'refunds'),
      this.collectingDocuments,
      now,
      seededCounts.refunds,
    );
    const { recurrences, attempts } = seedRecurrences(
      seededRandomFor(seed, 'recurrences'),
      world,
      now,
      seededCounts.recurrences,
    );
    for (const { recurrence, request } of recurrences) this.addRecurrence(recurrence, request);
    for (const attempt of attempts) this.attempts.set(attempt.id, attempt);
    const cards = seedCards(seededRandomFor(seed, 'cards'), world, now);
    this.cards = new Map(cards.cards.map((card) => [card.id, card]));
    this.invoices = cards.invoices;
    this.purchasesByEndToEndId = new Map(cards.purchases.map((item) => [item.end_to_end_id, item]));
    this.random = seededRandomFor(seed, 'bank-data-runtime');
  }

  addRecurrence(recurrence: Recurrence, request: GenerateRecurrenceRequest): void {
    this.recurrences.set(recurrence.id, recurrence);
    this.recurrencesByExternalId.set(recurrence.external_id, { record: recurrence, request });
  }

  recurrenceByExternalId(externalId: string): CreatedUnderExternalId<Recurrence> | undefined {
    return this.recurrencesByExternalId.get(externalId);
  }
}
