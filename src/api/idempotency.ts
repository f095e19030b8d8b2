import { createHash, createHmac } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';
import {
  apiIdempotencyWorkflowType,
  recordFingerprintUpdate,
  type ApiIdempotencyWorkflow,
  type RequestFingerprint,
} from '../contract/api-idempotency.js';
import { workflowIds } from '../contract/ids.js';
import type { StarterContext } from '../starter/context.js';
import { defaultReplyTimeoutMs } from '../starter/merchant-requests.js';
import { ApiProblem } from './problems.js';

export const idempotencyHeader = 'Idempotency-Key';
const keyPattern = /^[\x21-\x7e]{1,255}$/;

/** What one Idempotency-Key of one API key stands for: the ids its requests carry to the starter. */
export interface IdempotencyScope {
  /** Hash of the API key's name and the Idempotency-Key: the workflow id's key, and what derived ids come from. */
  hash: string;
  /** Keys the fingerprint's hashes: only who holds the Idempotency-Key can tell a value from its hash. */
  secret: string;
}

/** The request's Idempotency-Key, or a 400 problem naming the header. */
export function idempotencyScope(keyName: string, header: string | string[] | undefined): IdempotencyScope {
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !keyPattern.test(key))
    throw new ApiProblem(
      400,
      'idempotency-key-required',
      'Idempotency-Key required',
      `every POST needs an ${idempotencyHeader} header of 1 to 255 visible ASCII characters (a UUID per operation); a repeat with the same key gets the first answer`,
      [
        {
          field: idempotencyHeader,
          reason: key === undefined ? 'is missing' : 'must be 1 to 255 visible ASCII characters',
        },
      ],
    );
  const secret = `${keyName}\n${key}`;
  return { hash: createHash('sha256').update(secret).digest('base64url'), secret };
}

/** An id derived from the scope for the starter (`api-<hash>`): the same key gives the same id on every process. */
export const derivedId = (scope: IdempotencyScope, purpose: string): string =>
  `api-${createHash('sha256').update(`${purpose}\n${scope.hash}`).digest('base64url').slice(0, 32)}`;

/** Every leaf of a JSON value by its path (`suggestedAccount.branch`, `items.0`); empty objects and arrays are leaves. */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  const members =
    value && typeof value === 'object'
      ? Array.isArray(value)
        ? value.map((member, index) => [String(index), member] as const)
        : Object.entries(value)
      : [];
  // An empty body says nothing: a request without one differs from another by the fields the other has.
  if (members.length === 0 && (path !== '' || (value !== null && typeof value !== 'object')))
    into.set(path, value);
  for (const [name, member] of members) leaves(member, path ? `${path}.${name}` : name, into);
  return into;
}

/** The fingerprint of a request: keyed hashes only, so the workflow that keeps it keeps no personal data. */
export function fingerprintOf(
  scope: IdempotencyScope,
  request: { method: string; path: string; body: unknown },
): RequestFingerprint {
  const hash = (text: string) => createHmac('sha256', scope.secret).update(text).digest('base64url');
  const fields: Record<string, string> = {};
  for (const [path, value] of leaves(request.body ?? {}, '', new Map()))
    fields[path || '(body)'] = hash(JSON.stringify(value) ?? 'undefined');
  return { request: hash(`${request.method} ${request.path}`), fields };
}

/** The fields whose hashes differ between two fingerprints, the request line first. */
export function differingFields(recorded: RequestFingerprint, given: RequestFingerprint): string[] {
  const names = [...new Set([...Object.keys(recorded.fields), ...Object.keys(given.fields)])].sort();
  return [
    ...(recorded.request === given.request ? [] : ['(method and path)']),
    ...names.filter((name) => recorded.fields[name] !== given.fields[name]),
  ];
}

/**
 * Records the request under its key, or compares it with the one first recorded: another request under the same
 * key is a 409 problem naming the differing fields. The key's workflow is reached by update-with-start, so the
 * first request on any API process of a fleet records it and every later one gets it back.
 */
export async function claimIdempotencyKey(
  ctx: StarterContext,
  scope: IdempotencyScope,
  fingerprint: RequestFingerprint,
): Promise<void> {
  const workflowId = workflowIds.apiIdempotency(scope.hash);
  const recorded = await ctx.client.withDeadline(
    Date.now() + (ctx.replyTimeoutMs ?? defaultReplyTimeoutMs),
    () =>
      ctx.client.workflow.executeUpdateWithStart(recordFingerprintUpdate, {
        args: [fingerprint],
        startWorkflowOperation: new WithStartWorkflowOperation<ApiIdempotencyWorkflow>(
          apiIdempotencyWorkflowType,
          {
            workflowId,
            taskQueue: ctx.taskQueue,
            workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
            args: [],
            staticSummary: 'Merchant API Idempotency-Key',
          },
        ),
      }),
  );
  const differing = differingFields(recorded, fingerprint);
  if (differing.length > 0)
    throw new ApiProblem(
      409,
      'idempotency-key-reused',
      'Idempotency-Key reused',
      `this ${idempotencyHeader} was first used for another request (differing: ${differing.join(', ')}); use a new key for a new request`,
      differing.map((field) => ({
        field,
        reason: 'differs from the first request under this Idempotency-Key',
      })),
    );
}
