import { z } from 'zod';

/** Merchant input that cannot start a workflow; `field` names the offending member. */
export class InvalidInputError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'InvalidInputError';
  }
}

/** Parses merchant input with a zod schema, throwing InvalidInputError for the first bad field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError(issue?.path.map(String).join('.') || 'input', issue?.message ?? 'invalid');
}
