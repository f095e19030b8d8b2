// The two error classes from their own modules: starter/index.js loads the Temporal client, which a command's
// definition must not.
import { InvalidInputError } from '../starter/errors.js';
import { StartTermsConflictError } from '../starter/start-terms.js';

/** Which command-line option carries each starter input field, e.g. `{ deviceId: '--device' }`. */
export type OptionNames = Record<string, string>;

/** The option carrying `field`, and the inner path of a nested field; undefined when no option carries it. */
function optionFor(names: OptionNames, field: string): { option: string; inner: string } | undefined {
  const key = Object.keys(names)
    .filter((candidate) => field === candidate || field.startsWith(`${candidate}.`))
    .sort((a, b) => b.length - a.length)[0];
  if (key === undefined) return undefined;
  return { option: names[key] ?? key, inner: field.slice(key.length + 1) };
}

const optionNamed = (names: OptionNames, field: string) => {
  const found = optionFor(names, field);
  if (!found) return field;
  return found.inner ? `${found.option} ${found.inner}` : found.option;
};

/**
 * Runs a starter call and, when it refuses the input or the terms of a start, names the options the user
 * typed instead of the starter's fields: `--device: must be a uuid` rather than `deviceId: must be a uuid`,
 * `--amount (started with 1050, now 999)` rather than `amountCents (...)`. A nested field keeps its inner
 * path.
 */
export async function withOptionNames<T>(names: OptionNames, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StartTermsConflictError) {
      throw new StartTermsConflictError(
        error.workflowId,
        error.differences.map((difference) => ({
          ...difference,
          field: optionNamed(names, difference.field),
        })),
      );
    }
    if (!(error instanceof InvalidInputError)) throw error;
    const found = optionFor(names, error.field);
    if (found === undefined) throw error;
    throw new InvalidInputError(found.option, found.inner ? `${found.inner}: ${error.reason}` : error.reason);
  }
}

/** A whole number of cents, as typed; the starters refuse zero. `option` names the option in the error. */
export function parseCents(option: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidInputError(option, 'must be a whole number of cents');
  return Number(value);
}
