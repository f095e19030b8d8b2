import type { FastifyReply } from 'fastify';
import { sendError } from './errors.js';

/** JSON with object members in key order, so two bodies that say the same compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The top-level members `repeated` states otherwise than `first`, in order. */
function changedMembers(first: Record<string, unknown>, repeated: Record<string, unknown>): string[] {
  const members = new Set([...Object.keys(first), ...Object.keys(repeated)]);
  return [...members].filter((member) => canonical(first[member]) !== canonical(repeated[member])).sort();
}

/** A record created under an external_id, with the create body that made it. */
export interface CreatedUnderExternalId<T extends { id: string }> {
  record: T;
  request: Record<string, unknown>;
}

/**
 * Answers a create repeating an external_id already used in its scope: the first record when the request is
 * the same, else 409 `EXTERNAL_ID_IN_USE` naming the members that differ, so a reconciliation reference never
 * names two different requests. `kind` names the record in the message, e.g. `payment`.
 */
export function answerRepeatedCreate<T extends { id: string }>(
  reply: FastifyReply,
  kind: string,
  externalId: string,
  first: CreatedUnderExternalId<T>,
  request: Record<string, unknown>,
): { data: T } | FastifyReply {
  const changed = changedMembers(first.request, request);
  if (changed.length === 0) return { data: first.record };
  return sendError(
    reply,
    409,
    'EXTERNAL_ID_IN_USE',
    `external_id ${JSON.stringify(externalId)} already names ${kind} ${first.record.id}, created with another ${changed.join(', ')}; repeat that request or use another external_id`,
    '/external_id',
  );
}
