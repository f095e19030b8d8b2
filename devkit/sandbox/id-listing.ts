import { z } from 'zod';
import type { SandboxState } from './state.js';

/** One id a bankflow command takes, with a few words saying which record it names. */
export const listedIdSchema = z.object({ id: z.string(), about: z.string() });
export type ListedId = z.infer<typeof listedIdSchema>;

const ids = z.array(listedIdSchema);

/**
 * The kinds of ids the sandbox lists, in the order a newcomer meets them. Seeded kinds keep their ids for a
 * seed (the README's examples rely on seed 42's); devices, enrollments and payments exist once someone
 * created them.
 */
const kindsShape = {
  entities: ids,
  virtual_accounts: ids,
  bank_accounts: ids,
  boletos: ids,
  cards: ids,
  card_purchases: ids,
  recurrences: ids,
  attempts: ids,
  participants: ids,
  devices: ids,
  enrollments: ids,
  payments: ids,
};
export type IdKind = keyof typeof kindsShape;
export const idKinds = Object.keys(kindsShape) as IdKind[];

export const idListingSchema = z.object({ seed: z.number().int(), ...kindsShape });
export type IdListing = z.infer<typeof idListingSchema>;

const listed = <T>(records: Iterable<T>, describe: (record: T) => ListedId): ListedId[] =>
  [...records].map(describe);

const worldIds = (ids: string[], about: string): ListedId[] => ids.map((id) => ({ id, about }));

/**
 * Every id the sandbox holds right now, each as the commands take it (a card purchase by its end-to-end id).
 */
export function listIds(state: SandboxState): IdListing {
  const { world, bankData, biometrics } = state;
  return {
    seed: state.seed,
    entities: worldIds(world.entityIds, 'merchant entity: --entity of attempts, card invoice, payment'),
    virtual_accounts: worldIds(
      world.virtualAccountIds,
      'virtual account: --virtual-account of payment, refunds',
    ),
    bank_accounts: worldIds(world.bankAccountIds, 'bank account: --bank-account of metrics'),
    boletos: listed(state.boletos.values(), (b) => ({ id: b.id, about: `${b.status}, ${b.external_id}` })),
    cards: listed(bankData.cards.values(), (c) => ({
      id: c.id,
      about: `${c.type}, ${c.status}, entity ${c.entity_id}`,
    })),
    card_purchases: listed(bankData.purchasesByEndToEndId.values(), (p) => ({
      id: p.end_to_end_id,
      about: `${p.status}, card ${p.card_id}, ${p.timestamp}`,
    })),
    recurrences: listed(bankData.recurrences.values(), (r) => ({
      id: r.id,
      about: `${r.status}, ${r.external_id}`,
    })),
    attempts: listed(bankData.attempts.values(), (a) => ({
      id: a.id,
      about: `${a.status}, ${a.external_id}, due ${a.due_date}`,
    })),
    participants: listed(biometrics.participants, (p) => ({
      id: p.id,
      about: `${p.name}${p.is_enrollment_available ? '' : ', not open to enrollment'}`,
    })),
    devices: listed(biometrics.devices.values(), ({ record }) => ({
      id: record.id,
      about: `fingerprint ${record.fingerprint}`,
    })),
    enrollments: listed(biometrics.enrollments.values(), ({ record }) => ({
      id: record.id,
      about: `${record.status}, device ${record.device_id}, participant ${record.participant_id}`,
    })),
    payments: listed(biometrics.payments.values(), ({ record, enrollmentId }) => ({
      id: record.id,
      about: `${record.status}, ${record.external_id ?? 'no external id'}, enrollment ${enrollmentId}`,
    })),
  };
}
