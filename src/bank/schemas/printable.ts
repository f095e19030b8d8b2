import { z } from 'zod';

/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC, BEL, CR, backspace, newline, tab...),
 * DEL, C1 controls (U+0080 to U+009F, among them the 8-bit CSI U+009B and OSC U+009D), and the bidi overrides
 * and isolates (U+202A to U+202E, U+2066 to U+2069) that reorder the text around them. A bank string holding
 * one can clear a support person's screen, fake a table row or plant a hyperlink.
 */
export const unprintableCharacter = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

const codePoint = (character: string) =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A zod check refusing a string that holds an unprintable character, naming the first one by its code point.
 * For what bankflow matches, routes or files by (ids, codes, statuses, categories, types, URLs) and for
 * merchant input; human text the bank writes (descriptions, names) is kept and escaped where it is shown.
 */
export function printableOnly() {
  return z.refine<string>((value) => !unprintableCharacter.test(value), {
    error: (issue) => {
      const found = unprintableCharacter.exec(String(issue.input))?.[0];
      return `must not contain control or bidi override characters${found ? ` (found ${codePoint(found)})` : ''}`;
    },
  });
}

/** A string without unprintable characters; chain the rest: `printable.min(1)`, `printable.nullable()`. */
export const printable = z.string().check(printableOnly());
