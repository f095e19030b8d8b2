/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sandbox data and the same injected faults,
 * so a failing test or benchmark can be replayed exactly.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  digits(length: number): string {
    let out = '';
    while (out.length < length) out += String(Math.floor(this.next() * 10));
    return out;
  }

  /**
   * A generator of its own for one record and what hangs off it, taking one draw from this one: however many
   * draws the record needs (more when it has more history up to now), the next record's ids stay the same.
   */
  fork(): SeededRandom {
    return new SeededRandom(Math.floor(this.next() * 4294967296));
  }

  /** A version-4-shaped uuid. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/**
 * A generator of its own for each kind of seeded data, so adding records of one kind never shifts the ids of
 * another (README examples cite seeded ids).
 */
export function seededRandomFor(seed: number, domain: string): SeededRandom {
  let hash = 2166136261;
  for (const char of domain) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return new SeededRandom((seed ^ hash) >>> 0);
}
