/**
 * How deep a webhook body may nest. The spec's records nest a handful of levels; far deeper bodies parse, but
 * turning them back into JSON for Temporal overflows the stack, which would answer a signed event 503
 * forever.
 */
export const maxJsonDepth = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const unpairedSurrogate = /\p{Cs}/u;

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * The raw bytes as strict JSON text (RFC 8259): UTF-8 only, no unpaired surrogates (`\ud800`), which gRPC
 * cannot carry to Temporal in a workflow id or query, and at most `maxJsonDepth` levels deep.
 */
export function readJsonBody(raw: Buffer): JsonBody {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, reason: 'body is not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'body is not valid JSON' };
  }
  const problem = inspect(value);
  return problem ? { ok: false, reason: problem } : { ok: true, value };
}

/** Walks the document without recursion, so a deep one cannot overflow the stack here either. */
function inspect(root: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string' && unpairedSurrogate.test(value)) {
      return 'body holds a string with an unpaired UTF-16 surrogate';
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth === maxJsonDepth) return `body nests deeper than ${maxJsonDepth} levels`;
    for (const [key, member] of Object.entries(value)) {
      pending.push({ value: key, depth }, { value: member, depth: depth + 1 });
    }
  }
  return undefined;
}
