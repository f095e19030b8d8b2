import { InvalidInputError } from '../starter/index.js';

/** Which command-line option carries each starter input field, e.g. `{ deviceId: '--device' }`. */
export type OptionNames = Record<string, string>;

/**
 * Runs a starter call and, when it refuses the input, names the option the user typed instead of the starter's
 * field: `--device: must be a uuid` rather than `deviceId: must be a uuid`. A nested field keeps its inner path.
 */
export async function withOptionNames<T>(names: OptionNames, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const field = Object.keys(names)
      .filter((key) => error.field === key || error.field.startsWith(`${key}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (field === undefined) throw error;
    const inner = error.field.slice(field.length + 1);
    throw new InvalidInputError(names[field] ?? field, inner ? `${inner}: ${error.reason}` : error.reason);
  }
}

/** A whole number of cents, as typed; the starters refuse zero. `option` names the option in the error. */
export function parseCents(option: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidInputError(option, 'must be a whole number of cents');
  return Number(value);
}
