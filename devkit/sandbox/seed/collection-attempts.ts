import type {
  CollectionAttempt,
  CollectionAttemptStatus,
} from '../../../src/bank/schemas/collection-attempt.js';
import type { Recurrence } from '../../../src/bank/schemas/recurrence.js';
import type { Stage } from '../../../src/bank/schemas/stage.js';
import { endToEndId } from './generators.js';
import type { SeededRandom } from './random.js';

/** One try at collecting one period of a recurrence, before it becomes a record. */
export interface AttemptPlan {
  recurrence: Recurrence;
  collectionId: string;
  txid: string;
  /** When the bank scheduled the collection (`collection_timestamp`). */
  scheduledAt: Date;
  dueDate: Date;
  /** When this attempt happened, or was scheduled if it is still `created` (`timestamp`). */
  at: Date;
  status: CollectionAttemptStatus;
  retry: boolean;
}

const failures = [
  ['INSUFFICIENT_FUNDS', 'Saldo insuficiente na conta do pagador'],
  ['ACCOUNT_BLOCKED', 'Conta do pagador bloqueada'],
  ['AUTHORIZATION_REVOKED', 'Autorização revogada pelo pagador'],
] as const;

function stage(random: SeededRandom, status: CollectionAttemptStatus, at: Date): Stage {
  const failure = status === 'failed' ? random.pick(failures) : undefined;
  return {
    id: random.uuid(),
    status,
    error_code: failure?.[0] ?? null,
    error_message: failure?.[1] ?? null,
    inserted_at: at.toISOString(),
  };
}

/** Pix initiated: the attempt gets its end-to-end id, and a transaction date once the money arrived. */
function applyOutcome(
  random: SeededRandom,
  attempt: CollectionAttempt,
  payerIspb: string,
  status: CollectionAttemptStatus,
  at: Date,
): void {
  attempt.status = status;
  // The attempt is dated by its latest outcome, so a window sync picks up a later move.
  attempt.timestamp = at.toISOString();
  attempt.updated_at = at.toISOString();
  if (status === 'settled' || status === 'failed') {
    attempt.end_to_end_id ??= endToEndId(random, 'E', payerIspb, at);
  }
  attempt.transaction_date = status === 'settled' ? at.toISOString() : null;
}

/**
 * The attempt record with its stages: `created` when the collection was scheduled, then the outcome at `at`.
 */
export function buildAttempt(random: SeededRandom, plan: AttemptPlan): CollectionAttempt {
  const createdAt = plan.scheduledAt.getTime() <= plan.at.getTime() ? plan.scheduledAt : plan.at;
  const attempt: CollectionAttempt = {
    id: random.uuid(),
    collection_id: plan.collectionId,
    external_id: plan.recurrence.external_id,
    end_to_end_id: null,
    txid: plan.txid,
    type: plan.retry ? 'retry' : 'scheduled',
    status: 'created',
    collection_timestamp: plan.scheduledAt.toISOString(),
    due_date: plan.dueDate.toISOString(),
    timestamp: plan.at.toISOString(),
    transaction_date: null,
    inserted_at: createdAt.toISOString(),
    updated_at: createdAt.toISOString(),
    recurrence_id: plan.recurrence.id,
    entity_id: plan.recurrence.entity_id,
    stages: [stage(random, 'created', createdAt)],
  };
  if (plan.status !== 'created') moveAttempt(random, attempt, plan.recurrence, plan.status, plan.at);
  return attempt;
}

/** Only a `created` attempt moves on; every other status is final. */
export function canMove(attempt: CollectionAttempt, status: CollectionAttemptStatus): boolean {
  return attempt.status === 'created' && status !== 'created';
}

/** The end-to-end id is minted from the payer's ISPB, which the recurrence knows. */
export function moveAttempt(
  random: SeededRandom,
  attempt: CollectionAttempt,
  recurrence: Recurrence,
  status: CollectionAttemptStatus,
  at: Date,
): void {
  applyOutcome(random, attempt, recurrence.ispb, status, at);
  attempt.stages = [...(attempt.stages ?? []), stage(random, status, at)];
}

/** The list form carries no stages (only the single-record form does). */
export function listedAttempt(attempt: CollectionAttempt): CollectionAttempt {
  const listed = { ...attempt };
  delete listed.stages;
  return listed;
}
