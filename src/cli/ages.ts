const units = [
  { ms: 24 * 60 * 60_000, suffix: 'd' },
  { ms: 60 * 60_000, suffix: 'h' },
  { ms: 60_000, suffix: 'm' },
] as const;

/** A span of time as support staff read it at a glance: `3d 4h`, `2h 5m`, `12m`, `40s`. */
export function formatAge(ms: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, ms);
  for (const unit of units) {
    const count = Math.floor(rest / unit.ms);
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit.suffix}`);
    rest -= count * unit.ms;
  }
  if (parts.length === 0) return `${Math.floor(rest / 1000)}s`;
  return parts.slice(0, 2).join(' ');
}
