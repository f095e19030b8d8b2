import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const decisionsPath = path.join(root, 'docs/decisions.md');
const rationaleMarker = 'rationale only';

/**
 * The decisions that govern no behaviour, so no test can hold them; adding one is a choice made here, in
 * review.
 */
const rationaleOnly = ['Platform: Jest global setup', 'Platform: TypeScript', 'Platform: CI install'];

interface Decision {
  /** `<section>: <topic>`, as the report names it. */
  name: string;
  heldBy: string;
}

const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
const isSeparator = (row: string | undefined) => row !== undefined && /^\|[\s|:-]+\|$/.test(row.trim());

/** A heading's anchor, as GitHub makes it. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

/**
 * The "Held by" paragraph of every `### ` section, by the section's anchor, its lines joined: a row's longer
 * list of tests lives in the section its `[why](#...)` links to.
 */
function heldByOfSections(lines: string[]): Map<string, string> {
  const heldBy = new Map<string, string>();
  let anchor: string | undefined;
  let paragraph: string[] | undefined;
  for (const line of [...lines, '']) {
    const ends = line.trim() === '' || line.startsWith('#');
    if (anchor && paragraph && ends) heldBy.set(anchor, paragraph.join(' '));
    if (ends) paragraph = undefined;
    if (line.startsWith('#')) anchor = line.startsWith('### ') ? anchorOf(line.slice(4)) : undefined;
    else if (anchor && line.startsWith('Held by ')) paragraph = [line];
    else if (paragraph && !ends) paragraph.push(line);
  }
  return heldBy;
}

/**
 * Every table row under a `## ` section, with its last cell and the "Held by" paragraph of the section its
 * `[why](#...)` links to; a table without a "held by" column is a problem.
 */
function parseDecisions(markdown: string): { decisions: Decision[]; problems: string[] } {
  const decisions: Decision[] = [];
  const problems: string[] = [];
  const lines = markdown.split('\n');
  const sectionHeldBy = heldByOfSections(lines);
  let section = '';
  let heldByColumn = -1;
  lines.forEach((line, index) => {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('|') || isSeparator(line)) return;
    const cells = cellsOf(line);
    if (isSeparator(lines[index + 1])) {
      heldByColumn = cells.indexOf('held by');
      if (heldByColumn === -1) problems.push(`${section}: the table has no "held by" column`);
      return;
    }
    if (heldByColumn === -1) return;
    const why = [...line.matchAll(/\]\(#([\w-]+)\)/g)].map(([, anchor]) => sectionHeldBy.get(anchor!) ?? '');
    decisions.push({
      name: `${section}: ${cells[0]}`,
      heldBy: [cells[heldByColumn] ?? '', ...why].join('; '),
    });
  });
  return { decisions, problems };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `source` declares a test (`it`, `test`, or their `.each`) with exactly this name. */
function declaresTest(source: string, name: string): boolean {
  const call = `\\b(?:it|test)(?:\\.(?:each\\([^)]*\\)|only|concurrent))?\\(\\s*`;
  return new RegExp(`${call}(['"\`])${escapeRegExp(name)}\\1`).test(source);
}

/**
 * What is wrong with what one decision names: no test, a file that does not exist, a test name its file
 * lacks.
 */
function problemsOf(decision: Decision, readTest: (file: string) => string | undefined): string[] {
  if (decision.heldBy.startsWith(rationaleMarker)) return [];
  const references = [
    ...decision.heldBy.matchAll(/\((?:\.\.\/)?(test\/[^)\s]+\.test\.ts)\)((?:[^;(]|\([^)]*\))*)/g),
  ];
  if (references.length === 0) return [`${decision.name}: names no test file (test/...test.ts)`];
  return references.flatMap(([, file, names]) => {
    const source = readTest(file!);
    if (source === undefined) return [`${decision.name}: ${file} does not exist`];
    return [...(names ?? '').matchAll(/"([^"]+)"/g)]
      .map(([, name]) => name!)
      .filter((name) => !declaresTest(source, name))
      .map((name) => `${decision.name}: ${file} has no test named "${name}"`);
  });
}

const readTestFile = (file: string) => {
  const full = path.join(root, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
};

describe('docs/decisions.md: every decision names the tests that hold it', () => {
  const { decisions, problems } = parseDecisions(readFileSync(decisionsPath, 'utf8'));

  it('gives every table a "held by" column and reads every decision in it', () => {
    expect(problems).toEqual([]);
    expect(decisions.length).toBeGreaterThan(150);
  });

  it('names, for each decision that governs behaviour, test files that exist and tests those files declare', () => {
    expect(decisions.flatMap((decision) => problemsOf(decision, readTestFile))).toEqual([]);
  });

  it('marks as rationale only the few decisions listed here, which govern no behaviour', () => {
    const marked = decisions.filter((decision) => decision.heldBy.startsWith(rationaleMarker));
    expect(marked.map((decision) => decision.name)).toEqual(rationaleOnly);
  });

  it('catches a decision naming no test, a missing file and a test its file or its why section does not declare', () => {
    const sample = [
      '## Sample',
      '| topic | decision | held by |',
      '| --- | --- | --- |',
      '| Nothing named | a rule | |',
      '| Missing file | a rule | [x](../test/unit/no-such-file.test.ts) |',
      '| Missing test | a rule | [decisions-contract.test.ts](../test/unit/decisions-contract.test.ts): "no such test" |',
      '| Held | a rule | [decisions-contract.test.ts](../test/unit/decisions-contract.test.ts): "marks as rationale only the few decisions listed here, which govern no behaviour" |',
      '| Held by its why | a rule. [why](#why-held-by-its-why) | [decisions-contract.test.ts](../test/unit/decisions-contract.test.ts) |',
      '### Why: held by its why',
      'Held by [decisions-contract.test.ts](../test/unit/decisions-contract.test.ts): "no test',
      'of this name"',
      '## Without the column',
      '| topic | decision |',
      '| --- | --- |',
      '| Unchecked | a rule |',
    ].join('\n');
    const parsed = parseDecisions(sample);
    expect(parsed.problems).toEqual(['Without the column: the table has no "held by" column']);
    expect(parsed.decisions.flatMap((decision) => problemsOf(decision, readTestFile))).toEqual([
      'Sample: Nothing named: names no test file (test/...test.ts)',
      'Sample: Missing file: test/unit/no-such-file.test.ts does not exist',
      'Sample: Missing test: test/unit/decisions-contract.test.ts has no test named "no such test"',
      'Sample: Held by its why: test/unit/decisions-contract.test.ts has no test named "no test of this name"',
    ]);
  });
});
