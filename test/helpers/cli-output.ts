import type { CliResult } from './cli.js';

const cents = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Reais as people write them, computed apart from the CLI's own formatter. */
export const brl = (amount: number) => `R$ ${cents.format(amount / 100)}`;

/** `text` matched literally inside a RegExp. */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An amount as a table cell, for a RegExp. */
export const reaisCell = (amount: number) => literal(brl(amount));

/** The JSON a successful command printed. */
export function printedJson(result: CliResult): unknown {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** The lines of a table a successful command printed. */
export function printedLines(result: CliResult): string[] {
  expect(result.code).toBe(0);
  return result.stdout.trimEnd().split('\n');
}
