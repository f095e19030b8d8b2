import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import proto from '@temporalio/proto';
import { allSearchAttributeKeys, searchAttributeTypeName } from '../contract/temporal.js';

const IndexedValueType = proto.temporal.api.enums.v1.IndexedValueType;

/** gRPC status codes the server answers a refused operator call with (grpc-js is not a direct dependency). */
const status = { NOT_FOUND: 5, PERMISSION_DENIED: 7, UNIMPLEMENTED: 12 } as const;

/** `missing` only in an inspection: registering adds it, as `registered`. */
export type AttributeOutcome = 'registered' | 'already registered' | 'conflict' | 'missing';

export interface AttributeResult {
  name: string;
  type: string;
  outcome: AttributeOutcome;
  /** Why a conflicting attribute cannot be used as bankflow needs it. */
  reason?: string;
}

/** What `bankflow setup` could not do, with what the operator does instead. */
export class SetupRefusedError extends Error {}

function indexedValueTypeOf(type: string): number {
  return IndexedValueType[`INDEXED_VALUE_TYPE_${type}` as keyof typeof IndexedValueType];
}

function indexedTypeName(value: number): string {
  return (IndexedValueType[value] ?? String(value)).replace('INDEXED_VALUE_TYPE_', '');
}

/**
 * Turns the server's refusals into what the operator can do about them. Temporal Cloud does not serve the
 * operator API to namespace clients, so search attributes are added there with tcld or in the Cloud UI.
 */
function refusal(error: unknown, namespace: string, address: string): Error {
  if (!isGrpcServiceError(error)) return error as Error;
  const names = allSearchAttributeKeys
    .map((key) => `${key.name} (${searchAttributeTypeName(key.type)})`)
    .join(', ');
  const cloud = /\.(tmprl\.cloud|api\.temporal\.io)(:\d+)?$/.test(address);
  if (error.code === status.UNIMPLEMENTED || (cloud && error.code === status.PERMISSION_DENIED)) {
    return new SetupRefusedError(
      `${address} does not let clients register search attributes; on Temporal Cloud add ` +
        `them with \`tcld namespace search-attributes add --namespace ${namespace} --search-attribute <name>=<type>\` ` +
        `or in the Cloud UI (Namespaces → ${namespace} → Search attributes): ${names}`,
      { cause: error },
    );
  }
  if (error.code === status.PERMISSION_DENIED) {
    return new SetupRefusedError(
      `permission denied registering search attributes on namespace ${namespace}; an ` +
        `operator with admin rights on the cluster runs \`bankflow setup\`, or adds them: ${names}`,
      { cause: error },
    );
  }
  if (error.code === status.NOT_FOUND) {
    return new SetupRefusedError(
      `namespace ${namespace} does not exist on ${address}; create it first, e.g. ` +
        `\`temporal operator namespace create --namespace ${namespace}\``,
      { cause: error },
    );
  }
  return error;
}

/** How each bankflow search attribute stands on the namespace, changing nothing (`bankflow doctor`). */
export async function inspectSearchAttributes(
  connection: Pick<ConnectionLike, 'operatorService'>,
  namespace: string,
  address: string,
): Promise<AttributeResult[]> {
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = { ...existing.systemAttributes, ...existing.customAttributes };
    return allSearchAttributeKeys.map((key): AttributeResult => {
      const current = known[key.name];
      if (current === undefined) return { name: key.name, type: key.type, outcome: 'missing' };
      if (indexedTypeName(current) === key.type)
        return { name: key.name, type: key.type, outcome: 'already registered' };
      return {
        name: key.name,
        type: key.type,
        outcome: 'conflict',
        reason: `registered as ${indexedTypeName(current)}, bankflow writes ${key.type}`,
      };
    });
  } catch (error) {
    throw refusal(error, namespace, address);
  }
}

/**
 * Registers every bankflow search attribute on the namespace, idempotently: attributes already there with
 * bankflow's type are left alone; one there with another type is reported, never changed, since the server
 * cannot change an attribute's type.
 */
export async function registerSearchAttributes(
  connection: Pick<ConnectionLike, 'operatorService'>,
  namespace: string,
  address: string,
): Promise<AttributeResult[]> {
  const inspected = await inspectSearchAttributes(connection, namespace, address);
  const missing = inspected.filter((result) => result.outcome === 'missing');
  if (missing.length > 0) {
    try {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(
          missing.map((result) => [result.name, indexedValueTypeOf(result.type)]),
        ),
      });
    } catch (error) {
      throw refusal(error, namespace, address);
    }
  }
  return inspected.map((result) =>
    result.outcome === 'missing' ? { ...result, outcome: 'registered' } : result,
  );
}

/**
 * Fails naming the attributes the namespace holds with another type: bankflow cannot run on that namespace.
 */
export function assertNoConflicts(results: AttributeResult[], namespace: string): void {
  const conflicts = results.filter((result) => result.outcome === 'conflict');
  if (conflicts.length === 0) return;
  throw new SetupRefusedError(
    `namespace ${namespace} has search attributes bankflow cannot use: ${conflicts
      .map((conflict) => `${conflict.name} (${conflict.reason})`)
      .join(', ')}; a namespace's attribute type cannot change, so use another namespace`,
  );
}
