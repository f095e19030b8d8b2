import { Option, type Command } from 'commander';
import { z } from 'zod';
import { dateTime, uuid } from '../bank/schemas/common.js';
import { InvalidInputError } from '../starter/errors.js';

/** What an option's or argument's text must be, and the reason given when it is not. */
export interface InputValue {
  schema: z.ZodType<string | number, string>;
  reason: string;
}

export const uuidValue: InputValue = { schema: uuid, reason: 'must be a uuid (8-4-4-4-12 hex digits)' };

export const dateTimeValue: InputValue = {
  schema: dateTime,
  reason: 'must be an ISO 8601 date-time, e.g. 2025-06-01T00:00:00Z',
};

export const textValue: InputValue = { schema: z.string().min(1), reason: 'must not be empty' };

export const countValue: InputValue = {
  schema: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1)),
  reason: 'must be a whole number of at least 1',
};

export function oneOf(values: readonly [string, ...string[]]): InputValue {
  return { schema: z.enum(values), reason: `must be one of ${values.join(', ')}` };
}

/** A command-line option that fills one query parameter of a bank endpoint. */
export interface Filter {
  /** Commander flags, e.g. `--from <date-time>`. */
  flags: string;
  parameter: string;
  value: InputValue;
  description: string;
  required?: boolean;
}

export const cursorFilters: readonly Filter[] = [
  {
    flags: '--before <cursor>',
    parameter: 'before',
    value: textValue,
    description: "the page that ends before this cursor (a page's metadata.before)",
  },
  {
    flags: '--after <cursor>',
    parameter: 'after',
    value: textValue,
    description: "the page that starts at this cursor (a page's metadata.after)",
  },
];

/** `--from` and `--to`, the half-open window `[from, to)` of a list; `records` says what the window holds. */
export function windowFilters(records: string, required = false): Filter[] {
  return [
    {
      flags: '--from <date-time>',
      parameter: 'from_datetime',
      value: dateTimeValue,
      description: `${records} at or after this instant (ISO 8601)`,
      ...(required ? { required } : {}),
    },
    {
      flags: '--to <date-time>',
      parameter: 'to_datetime',
      value: dateTimeValue,
      description: `${records} before this instant (ISO 8601)`,
      ...(required ? { required } : {}),
    },
  ];
}

export function addFilters(command: Command, filters: readonly Filter[]): Command {
  for (const filter of filters) {
    const option = new Option(filter.flags, filter.description);
    command.addOption(filter.required ? option.makeOptionMandatory() : option);
  }
  return command;
}

/** A positional argument checked before anything is sent; `name` is how the usage line shows it. */
export function checkedArgument(name: string, value: InputValue, text: string): string {
  const parsed = value.schema.safeParse(text);
  if (!parsed.success) throw new InvalidInputError(name, value.reason);
  return String(parsed.data);
}

const optionName = (filter: Filter) => new Option(filter.flags).long ?? filter.flags;

/** `to_datetime` in a schema's message reads `--to` on the command line. */
function inOptionTerms(message: string, filters: readonly Filter[]): string {
  return filters.reduce(
    (text, filter) => text.replace(new RegExp(`\\b${filter.parameter}\\b`, 'g'), optionName(filter)),
    message,
  );
}

/**
 * The bank query the options make, checked value by value and then by the endpoint's own query schema (for
 * rules across options, such as the window's order). A refusal names the option the user typed.
 */
export function queryFromOptions<S extends z.ZodType>(
  schema: S,
  filters: readonly Filter[],
  options: Record<string, unknown>,
): z.infer<S> {
  const query: Record<string, string | number> = {};
  for (const filter of filters) {
    const text = options[new Option(filter.flags).attributeName()];
    if (text === undefined) continue;
    const parsed = filter.value.schema.safeParse(text);
    if (!parsed.success) throw new InvalidInputError(optionName(filter), filter.value.reason);
    query[filter.parameter] = parsed.data;
  }
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const culprit = filters.find((filter) => filter.parameter === issue?.path[0]);
  throw new InvalidInputError(
    culprit ? optionName(culprit) : 'options',
    inOptionTerms(issue?.message ?? 'invalid', filters),
  );
}
