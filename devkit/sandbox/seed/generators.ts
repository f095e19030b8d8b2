import type { SeededRandom } from './random.js';

export const minuteMs = 60_000;
export const dayMs = 86_400_000;

/** A whole-second instant drawn uniformly from [from, to). */
export function instantBetween(random: SeededRandom, from: Date, to: Date): Date {
  const seconds = Math.floor((to.getTime() - from.getTime()) / 1000);
  return new Date(from.getTime() + random.int(0, Math.max(0, seconds - 1)) * 1000);
}

export function plusMs(at: Date, ms: number): Date {
  return new Date(at.getTime() + ms);
}

/** The earlier of two instants. */
export function earliest(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** A Pix end-to-end id: `E` or `D` (return), the payer's ISPB, yyyyMMddHHmm, 11 letters or digits. */
export function endToEndId(random: SeededRandom, prefix: 'E' | 'D', ispb: string, at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  const tail = random.hex(11).toUpperCase();
  return `${prefix}${ispb}${stamp}${tail}`;
}

/** The sandbox bank's own ISPB, on the end-to-end ids of payments it originates. */
export const sandboxBankIspb = '99999008';

/** Payers' banks, for counterparties of seeded recurrences and Pix cash-ins. */
export const payerIspbs = ['00000000', '60701190', '60746948', '00360305', '90400888', '18236120'] as const;

export function weighted<T>(random: SeededRandom, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  // Reached only when floating-point rounding leaves a sliver of the roll after the last choice.
  return choices[choices.length - 1]![0];
}

/** A seeded Fisher-Yates shuffle; the input is left as it was. */
export function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

export const serial = (prefix: string, index: number) => `${prefix}-${String(index + 1).padStart(5, '0')}`;

const firstNames = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elisa',
  'Fábio',
  'Gabriela',
  'Heitor',
  'Isabela',
  'João',
];
const lastNames = [
  'Silva',
  'Souza',
  'Oliveira',
  'Santos',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Lima',
];

export function personName(random: SeededRandom): string {
  return `${random.pick(firstNames)} ${random.pick(lastNames)}`;
}
