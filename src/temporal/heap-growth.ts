import v8 from 'node:v8';

/**
 * How far past what its last full collection kept V8 lets each heap of this process grow before collecting
 * again, as a percentage; 0 leaves V8's own factor (up to 4x the live heap on a machine with this much memory).
 * Unlike a heap's size limits, V8 reads this flag at every full collection, so it applies to the main thread too,
 * whose heap was sized before any bankflow code ran.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
