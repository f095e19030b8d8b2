import type { Money } from '../bank/schemas/common.js';

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** Minor units as Brazilian money, `R$ 1.234,56`: the bank counts cents, people read reais. */
export function reais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const whole = Math.floor(absolute / 100);
  const fraction = String(absolute % 100).padStart(2, '0');
  return `${sign}R$ ${grouped(String(whole))},${fraction}`;
}

/** A money object in its own currency; only BRL has a symbol, others keep their ISO code. */
export function money(value: Money): string {
  if (value.currency === 'BRL') return reais(value.amount);
  return reais(value.amount).replace('R$', value.currency);
}
