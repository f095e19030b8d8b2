import type { Money } from '../bank/schemas/common.js';
import { formatReais } from '../money.js';

/** A money object in its own currency; only BRL has a symbol, others keep their ISO code. */
export function money(value: Money): string {
  if (value.currency === 'BRL') return formatReais(value.amount);
  return formatReais(value.amount).replace('R$', value.currency);
}
