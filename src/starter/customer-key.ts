import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { SearchAttributePair } from '@temporalio/common';
import { searchAttributes } from '../contract/temporal.js';
import type { StarterContext } from './context.js';
import { InvalidInputError, parseInput } from './errors.js';

/** What may stand between a tax number's digits as people write it: spaces, dots, a slash, dashes. */
const separators = '[\\s./-]*';

/**
 * A CPF or CNPJ as people write it (`123.456.789-09`, `12.345.678/0001-95`), reduced to its digits. The
 * rule is the input's pattern, so the API's document states it: 11 or 14 digits, separators anywhere.
 */
export const taxNumberInput = z
  .string()
  .regex(
    new RegExp(`^${separators}(?:\\d${separators}){11}(?:(?:\\d${separators}){3})?$`),
    'must be a CPF (11 digits) or a CNPJ (14 digits)',
  )
  .describe('A CPF (11 digits) or a CNPJ (14 digits), with or without its dots, slash and dash')
  .transform((value) => value.replace(new RegExp(separators, 'g'), ''));

/**
 * The customer's lookup key: HMAC-SHA256 of the tax number's digits under the deployment's
 * SUPPORT_LOOKUP_SECRET. Support staff search it in the UI; without the secret it cannot be turned back into
 * the number, nor guessed from the small space of CPFs.
 */
export function customerKey(secret: string, taxNumber: string): string {
  const digits = parseInput(z.object({ taxNumber: taxNumberInput }), { taxNumber }).taxNumber;
  return createHmac('sha256', secret).update(digits).digest('hex');
}

/** The customer key under the context's secret; `field` names the input that asked for it. */
export function contextCustomerKey(ctx: StarterContext, field: string, taxNumber: string): string {
  if (ctx.customerKeySecret === undefined) {
    throw new InvalidInputError(
      field,
      'needs the starter context to carry the deployment secret (customerKeySecret; connectStarter reads SUPPORT_LOOKUP_SECRET)',
    );
  }
  return customerKey(ctx.customerKeySecret, taxNumber);
}

/** The BankflowCustomerKey a start carries when the merchant names the customer's tax number. */
export function customerKeyAttribute(
  ctx: StarterContext,
  taxNumber: string | undefined,
): SearchAttributePair[] {
  if (taxNumber === undefined) return [];
  return [
    { key: searchAttributes.customerKey, value: [contextCustomerKey(ctx, 'customerTaxNumber', taxNumber)] },
  ];
}
