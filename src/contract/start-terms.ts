import { failureTypes } from './failure-types.js';

/**
 * What a start commits the workflow to, by field path (`amountCents`, `counterparty.bank_account.ispb`):
 * recorded in the workflow's memo when it starts, and compared with every later start under the same workflow
 * id. Test knobs (polling, deadlines, history limits) are not terms.
 */
export type StartTerms = Record<string, unknown>;

/**
 * A term the first start recorded and a later one asked otherwise; values are left out for sensitive terms.
 */
export interface TermDifference {
  field: string;
  recorded?: unknown;
  requested?: unknown;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The leaves of `value` by dotted path; arrays are compared whole, undefined members are left out. */
export function flattenTerms(value: Record<string, unknown>, prefix = ''): StartTerms {
  const terms: StartTerms = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    const path = `${prefix}${key}`;
    if (isPlainObject(member)) Object.assign(terms, flattenTerms(member, `${path}.`));
    else terms[path] = member;
  }
  return terms;
}

/** Whether two values of a term say the same. */
export const sameTerm = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isSensitive = (field: string, sensitive: readonly string[]) =>
  sensitive.some((prefix) => field === prefix || field.startsWith(`${prefix}.`));

/**
 * The terms `requested` states otherwise than `recorded`, in field order. `sensitive` names the fields (or
 * their parents) whose values are personal data: their difference is reported without the values.
 */
export function differingTerms(
  recorded: StartTerms,
  requested: StartTerms,
  sensitive: readonly string[] = [],
): TermDifference[] {
  const fields = [...new Set([...Object.keys(recorded), ...Object.keys(requested)])].sort();
  return fields
    .filter((field) => !sameTerm(recorded[field], requested[field]))
    .map((field) =>
      isSensitive(field, sensitive)
        ? { field }
        : { field, recorded: recorded[field], requested: requested[field] },
    );
}

/** The failure type of a start refused for other terms than the first start's. */
export const startTermsConflict = failureTypes.startTermsConflict;
