/** A value as a string literal of Temporal's visibility query language. */
export function visibilityLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
