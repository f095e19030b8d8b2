import { pino } from 'pino';
import { bankFailureSummary, type BankFailureSummary } from './bank/failure-summary.js';

export const redactedValue = '[redacted]';

/**
 * Keys whose values never reach a log line, compared without case, `_` or `-` (so `tax_number`, `taxNumber`
 * and `x-webhook-secret` are all caught): credentials and webhook secrets, tax numbers, names, account
 * numbers and WebAuthn material (assertions, attestations, creation options, which name the customer).
 */
const sensitiveKeys = new Set(
  [
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'password',
    'secret',
    'secrets',
    'clientSecret',
    'apiKey',
    'token',
    'tokens',
    'x-webhook-secret',
    'x-webhook-signature',
    'tax_number',
    'counterparty_tax_number',
    'cpf',
    'cnpj',
    'counterparty_name',
    'holder_name',
    'payer_name',
    'customer_name',
    'display_name',
    'account_number',
    'account_info',
    'counterparty',
    'fido_assertion',
    'credential',
    'assertion',
    'attestation_object',
    'client_data_JSON',
    'authenticator_data',
    'signature',
    'user_handle',
    'public_key_encoded',
  ].map(normalized),
);

function normalized(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/** Deeper than any record bankflow logs; what lies below is dropped rather than walked. */
const maxDepth = 32;

/**
 * A copy of a log record with every sensitive key's value replaced, at any depth (pino's own `redact` paths
 * are fixed-depth). Errors become pino's serialized form first, so their enumerable fields (a failure's
 * details, a cause) are walked too.
 */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value instanceof Error) return redactDeep(serializedError(value), depth, seen);
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value) || value instanceof Date) {
    return value;
  }
  if (seen.has(value) || depth >= maxDepth) return '[not logged: too deep or circular]';
  // `seen` holds the objects on the path from the root only: one object logged twice side by side is not a
  // cycle.
  seen.add(value);
  const copy = Array.isArray(value)
    ? value.map((item) => redactDeep(item, depth + 1, seen))
    : redactMembers(Object.entries(value), depth + 1, seen);
  seen.delete(value);
  return copy;
}

/**
 * pino's serialized form of an error; a bank failure is summarised instead (status, codes, titles, pointers),
 * since the bank's messages may repeat personal data the request carried.
 */
function serializedError(error: Error): unknown {
  const bank = bankFailureSummary(error);
  if (!bank) return pino.stdSerializers.err(error);
  return { type: error.name, message: `bank failure (message not logged): ${describeSummary(bank)}`, bank };
}

function describeSummary(bank: BankFailureSummary): string {
  const titles = (bank.errors ?? []).map(
    (item) => `${item.title}${item.pointer ? ` at ${item.pointer}` : ''}`,
  );
  return [bank.operation, bank.type, bank.status && `HTTP ${bank.status}`, bank.code, ...titles]
    .filter(Boolean)
    .join(' ');
}

/** A log record (pino's merge object) with `redactDeep` applied to every member. */
export function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  return redactMembers(Object.entries(record), 0, new WeakSet());
}

function redactMembers(
  entries: [string, unknown][],
  depth: number,
  seen: WeakSet<object>,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, member] of entries) {
    copy[key] = sensitiveKeys.has(normalized(key)) ? redactedValue : redactDeep(member, depth, seen);
  }
  return copy;
}
