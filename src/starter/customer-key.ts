import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { SearchAttributePair } from '@temporalio/common';
import { searchAttributes } from '../contract/search-attributes.js';
import type { StarterContext } from './context.js';
import { InvalidInputError, parseInput } from './errors.js';

/** A CPF or CNPJ as people write it (`123.456.789-09`, `12.345.678/0001-95`), reduced to its digits. */
export const taxNumberInput = z
  .string()
  .transform((value) => value.replace(/[\s./-]/g, ''))
  .pipe(z.string().regex(/^(\d{11}|\d{14})$/, 'must be a CPF (11 digits) or a CNPJ (14 digits)'));

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
