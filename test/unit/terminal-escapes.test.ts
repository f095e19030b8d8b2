import { unprintableCharacter } from '../../src/bank/schemas/printable.js';
import { formatTable, type Column } from '../../src/cli/table.js';
import { escapeLines, escapeUnprintable } from '../../src/cli/terminal-text.js';

interface Row {
  id: string;
  description: string;
}

const columns: Column<Row>[] = [
  { title: 'ID', value: (row) => row.id },
  { title: 'DESCRIPTION', value: (row) => row.description },
];

const tableOf = (description: string) =>
  formatTable(
    [
      { id: 'first', description },
      { id: 'second', description: 'plain' },
    ],
    columns,
  );

/** Every class of character a terminal acts on, one example per line of the brief, with its escape. */
const hostile: [string, string, string][] = [
  ['NUL', '\u0000', '\\u0000'],
  ['BEL', '\u0007', '\\u0007'],
  ['backspace', '\b', '\\u0008'],
  ['tab', '\t', '\\u0009'],
  ['newline', '\n', '\\u000a'],
  ['carriage return', '\r', '\\u000d'],
  ['ESC', '\u001b', '\\u001b'],
  ['unit separator (last C0)', '\u001f', '\\u001f'],
  ['DEL', '\u007f', '\\u007f'],
  ['first C1 control', '\u0080', '\\u0080'],
  ['8-bit CSI', '\u009b', '\\u009b'],
  ['8-bit OSC', '\u009d', '\\u009d'],
  ['last C1 control', '\u009f', '\\u009f'],
  ['left-to-right embedding', '\u202a', '\\u202a'],
  ['right-to-left embedding', '\u202b', '\\u202b'],
  ['pop directional formatting', '\u202c', '\\u202c'],
  ['left-to-right override', '\u202d', '\\u202d'],
  ['right-to-left override', '\u202e', '\\u202e'],
  ['left-to-right isolate', '\u2066', '\\u2066'],
  ['right-to-left isolate', '\u2067', '\\u2067'],
  ['first strong isolate', '\u2068', '\\u2068'],
  ['pop directional isolate', '\u2069', '\\u2069'],
];

/** True when the text holds a character a terminal would act on (line breaks between rows excepted). */
const actsOnTerminal = (text: string) => text.split('\n').some((line) => unprintableCharacter.test(line));

describe('table cells escape what a terminal would act on', () => {
  it.each(hostile)('%s in a cell is shown as its escape, in its own cell', (_name, character, escape) => {
    const table = tableOf(`before${character}after`);
    expect(actsOnTerminal(table)).toBe(false);
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`first   before${escape}after`);
    expect(lines[2]).toBe('second  plain');
  });

  it('an OSC 8 hyperlink is printed as text, not planted as a link', () => {
    const link = '\u001b]8;;https://evil.example/login\u001b\\Open the refund\u001b]8;;\u001b\\';
    const table = tableOf(link);
    expect(table).not.toContain('\u001b');
    expect(table).toContain(
      '\\u001b]8;;https://evil.example/login\\u001b\\Open the refund\\u001b]8;;\\u001b\\',
    );
  });

  it('a CSI 2J clear screen, 7-bit or 8-bit, is printed as text', () => {
    const table = tableOf('\u001b[2J\u001b[Hall clear\u009b2J');
    expect(actsOnTerminal(table)).toBe(false);
    expect(table).toContain('\\u001b[2J\\u001b[Hall clear\\u009b2J');
  });

  it('a newline cannot fake a row: the table keeps one line per record, still aligned', () => {
    const fake = 'Pedido 1\nrefund-9999  R$ 1.000.000,00  settled';
    const table = tableOf(fake);
    const lines = table.split('\n');
    expect(lines).toEqual([
      `ID      DESCRIPTION`,
      `first   Pedido 1\\u000arefund-9999  R$ 1.000.000,00  settled`,
      `second  plain`,
    ]);
  });

  it('a right-to-left override cannot reorder the rest of the row', () => {
    const table = formatTable(
      [{ id: '\u202eevil', description: 'amount R$ 10,00' }],
      [...columns, { title: 'STATUS', value: () => 'failed' }],
    );
    expect(table.split('\n')[1]).toBe('\\u202eevil  amount R$ 10,00  failed');
  });

  it('columns are measured after escaping, so the rows below stay aligned', () => {
    const table = formatTable(
      [
        { id: 'a\u001bb', description: 'x' },
        { id: 'abcdef', description: 'y' },
      ],
      columns,
    );
    const [header, first, second] = table.split('\n');
    expect(header).toBe('ID        DESCRIPTION');
    expect(first).toBe('a\\u001bb  x');
    expect(second).toBe('abcdef    y');
  });

  it('printable text, accents and emoji included, is left as it is', () => {
    expect(escapeUnprintable('Pão de queijo ✓ 🎉 — R$ 10,50')).toBe('Pão de queijo ✓ 🎉 — R$ 10,50');
  });
});

describe('JSON printed for a terminal', () => {
  it('escapes what JSON.stringify leaves raw (DEL, C1, bidi) and still parses to the same value', () => {
    const value = {
      description: 'a\u007fb\u009b2J\u009d8;;x\u202ec',
      category: 'x\u001by',
      nested: ['\u2066'],
    };
    const printed = escapeLines(JSON.stringify(value, null, 2));
    expect(actsOnTerminal(printed)).toBe(false);
    expect(printed).toContain('"a\\u007fb\\u009b2J\\u009d8;;x\\u202ec"');
    expect(JSON.parse(printed)).toEqual(value);
  });
});
