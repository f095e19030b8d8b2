import type { z } from 'zod';

/**
 * The schemas of the variables that hold secrets. A variable is marked once, where src/config.ts declares it,
 * and whatever reports on the configuration asks here, so no error, doctor report or log line prints a
 * secret's value.
 */
const secretSchemas = new WeakSet<z.ZodType>();

/**
 * Marks a variable as secret: a copy of `schema`, so a schema shared with ordinary variables stays unmarked.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  const marked = schema.clone();
  secretSchemas.add(marked);
  return marked;
}

/** The variables of a schema's shape that are marked secret. */
export function secretNames(shape: Record<string, z.ZodType>): ReadonlySet<string> {
  return new Set(
    Object.entries(shape)
      .filter(([, schema]) => secretSchemas.has(schema))
      .map(([name]) => name),
  );
}

/**
 * Shorter fragments are left alone: withholding two letters would garble every message that holds them, and
 * production refuses secrets that short anyway.
 */
const shortestWithheld = 6;

/**
 * The parts of a secret value a message could quote: the value, each comma-separated entry, and what follows
 * an entry's first `:` or `=` (a key after its id, a password after its user, a header's value after its
 * name).
 */
function fragments(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim());
  const afterSeparator = entries.map((entry) => entry.slice(entry.search(/[:=]/) + 1).trim());
  return [value, value.trim(), ...entries, ...afterSeparator].filter(
    (fragment) => fragment.length >= shortestWithheld,
  );
}

/**
 * `text` with every part of the given secret values replaced by `[secret]`: the last guard of the
 * configuration's errors, whatever a message came to quote. Longest first, so a value is withheld whole
 * before its parts.
 */
export function withholdSecrets(text: string, secretValues: string[]): string {
  const all = [...new Set(secretValues.flatMap(fragments))].sort((a, b) => b.length - a.length);
  return withoutUrlCredentials(
    all.reduce((withheld, fragment) => withheld.replaceAll(fragment, '[secret]'), text),
  );
}

/**
 * Credentials written into any URL (`https://user:password@host`) are a secret whatever variable holds them,
 * so an ordinary variable such as BANK_BASE_URL or OTEL_EXPORTER_OTLP_ENDPOINT never shows them either.
 */
function withoutUrlCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@"]*@/gi, '$1[secret]@');
}

/** How an error shows the value it refused: quoted, or for a secret only its length. */
export function shownValue(raw: string, isSecret: boolean): string {
  if (!isSecret) return JSON.stringify(withoutUrlCredentials(raw));
  return `a secret of ${raw.length} character${raw.length === 1 ? '' : 's'}, not shown`;
}
