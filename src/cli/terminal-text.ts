import { unprintableCharacter } from '../bank/schemas/printable.js';

const everyUnprintable = new RegExp(unprintableCharacter.source, 'gu');

const escaped = (character: string) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

/**
 * Text as a terminal may show it: each control or bidi override character (bank/schemas/printable.ts) written
 * as `\u001b`, `\u009b`, `\u202e`..., so a hostile value reads as odd rather than clearing the screen, faking
 * a row or planting a link. The notation is JSON's, so escaped JSON stays JSON that parses to the same value.
 */
export function escapeUnprintable(text: string): string {
  return text.replace(everyUnprintable, escaped);
}

/**
 * Text of several lines the CLI composed (a JSON document, a table): its line breaks kept, all else escaped.
 */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeUnprintable).join('\n');
}

/**
 * How the CLI prints: every line escaped, on stdout, or on stderr for notes that must stay out of a command's
 * answer. A value from the bank or a workflow never reaches the terminal raw.
 */
export function printLines(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
  if (stream === 'stderr') console.error(escapeLines(text));
  else console.log(escapeLines(text));
}
