import fc from 'fast-check';

/**
 * Every property runs from one fixed seed so a failure reproduces; fast-check's failure message carries the
 * seed and the shrunk counterexample. FUZZ_SEED explores other seeds without editing a test.
 */
export const fuzzSeed = Number(process.env.FUZZ_SEED ?? 20261122);

export function fuzzParameters<T>(numRuns: number): fc.Parameters<T> {
  return { seed: fuzzSeed, numRuns };
}

/**
 * Any Unicode text of 1 to `maxLength` code points, controls and astral ones included, never an unpaired
 * surrogate.
 */
export const text = (maxLength = 24) => fc.string({ unit: 'binary', minLength: 1, maxLength });

/** Values of every JSON type but the one named, to put where that type is expected. */
export function jsonOtherThan(
  kind: 'string' | 'number' | 'boolean' | 'object' | 'array',
): fc.Arbitrary<unknown> {
  const all = {
    string: text(),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    object: fc.dictionary(text(8), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    array: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  };
  const others = Object.entries(all)
    .filter(([name]) => name !== kind)
    .map(([, arbitrary]) => arbitrary as fc.Arbitrary<unknown>);
  return fc.oneof(fc.constant(null), ...others);
}

/** The JSON type of a parsed value, as jsonOtherThan names it. */
export function jsonKind(value: unknown): 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

/** Gives a generated value a short description for fast-check's counterexample report. */
export function labelled<T extends object>(value: T, label: string): T {
  return Object.assign(value, { [fc.toStringMethod]: () => label });
}

/** A body as a counterexample shows it: the start of its text and its size. */
export function bodyLabel(what: string, body: Buffer): string {
  const start = body.subarray(0, 240).toString('utf8');
  return `${what} (${body.length} bytes): ${JSON.stringify(start)}${body.length > 240 ? '...' : ''}`;
}
