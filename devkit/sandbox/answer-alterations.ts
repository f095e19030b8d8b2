import type { AlterationRule } from './faults.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The records of an answer: its `data`, or each object of a list's `data`. */
function recordsOf(answer: unknown): JsonObject[] {
  if (!isObject(answer)) return [];
  const { data } = answer;
  if (Array.isArray(data)) return data.filter(isObject);
  return isObject(data) ? [data] : [];
}

/** Every object inside `value`, at any depth, arrays' items included; not `value` itself. */
function nestedObjects(value: unknown): JsonObject[] {
  const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
  return children.flatMap((child) => [...(isObject(child) ? [child] : []), ...nestedObjects(child)]);
}

/** Changes `records` as a JSON rule says; answers whether any record changed. */
function alterRecords(records: JsonObject[], rule: Exclude<AlterationRule, { mode: 'malformed_body' }>) {
  switch (rule.mode) {
    case 'unknown_status': {
      const withStatus = records.filter((record) => 'status' in record);
      for (const record of withStatus) record.status = rule.status;
      return withStatus.length > 0;
    }
    case 'unknown_member':
      for (const record of records) {
        for (const target of [record, ...(rule.nested ? nestedObjects(record) : [])]) {
          target[rule.member] = structuredClone(rule.value);
        }
      }
      return records.length > 0;
    case 'missing_member': {
      const holding = records.filter((record) => rule.member in record);
      for (const record of holding) delete record[rule.member];
      return holding.length > 0;
    }
  }
}

/** A JSON text cut in half: a proper prefix of an object's or a list's text is never valid JSON. */
const truncated = (body: string) => body.slice(0, Math.max(1, Math.floor(body.length / 2)));

/**
 * `body` (a 2xx JSON answer) as the `rules` change it, in order, the cut of `malformed_body` last; `applied`
 * holds the rules that changed it. The same text in gives the same text out: only the answer changes, never
 * what the bank holds.
 */
export function alterAnswer(
  body: string,
  rules: AlterationRule[],
): { body: string; applied: AlterationRule[] } {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return { body, applied: [] };
  }
  const records = recordsOf(answer);
  const applied: AlterationRule[] = [];
  let cut: AlterationRule | undefined;
  for (const rule of rules) {
    if (rule.mode === 'malformed_body') cut ??= rule;
    else if (alterRecords(records, rule)) applied.push(rule);
  }
  const text = applied.length > 0 ? JSON.stringify(answer) : body;
  if (!cut) return { body: text, applied };
  return { body: truncated(text), applied: [...applied, cut] };
}
