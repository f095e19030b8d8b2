import { escapeUnprintable } from './terminal-text.js';

export interface Column<Row> {
  title: string;
  value: (row: Row) => string;
  /** Amounts read best right-aligned, so their decimal commas line up. */
  align?: 'right';
}

/**
 * Rows as aligned text columns under a header, for people rather than scripts. Cells hold bank and workflow
 * strings, so each is escaped before it is measured: a newline, an escape sequence or a bidi override in a
 * value shows as `\u000a`, `\u001b`, `\u202e` in its own cell instead of acting on the terminal.
 */
export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = [
    columns.map((column) => column.title),
    ...rows.map((row) => columns.map((c) => c.value(row))),
  ].map((line) => line.map(escapeUnprintable));
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index]?.length ?? 0)));
  return cells
    .map((line) =>
      line
        .map((cell, index) =>
          columns[index]?.align === 'right'
            ? cell.padStart(widths[index] ?? 0)
            : cell.padEnd(widths[index] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
