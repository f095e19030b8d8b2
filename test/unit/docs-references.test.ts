import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The pages a reader is sent to: the README and every page of docs/. */
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Where the repository's own code lives: whatever reads a variable or uses a constant a page names. */
const codeFolders = ['src', 'bench', 'scripts', 'devkit', 'test', 'bin', '.ci'];

/**
 * Variables no code of bankflow reads that a page may still name, because the program that reads them is not
 * bankflow's; each entry says which.
 */
const readElsewhere: Record<string, string> = {
  MALLOC_ARENA_MAX:
    "glibc's malloc, read once at process start (a worker's native memory, docs/performance.md)",
  OTEL_BSP_SCHEDULE_DELAY:
    "the OpenTelemetry SDK's batch span processor, as the OpenTelemetry specification defines it",
  OTEL_BSP_MAX_QUEUE_SIZE:
    "the OpenTelemetry SDK's batch span processor, as the OpenTelemetry specification defines it",
};

/** A path a page names: from one of the repository's top folders, optionally as a link from docs/ (`../`). */
const pathPattern = /(?<![\w./-])(?:\.\.\/)?((?:src|bench|scripts|test|devkit)\/(?:[\w.*{},/-]|<[\w-]+>)*)/g;
/** An ALL_CAPS name with an underscore: an environment variable, or a constant the code uses. */
const namePattern = /(?<![\w-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(_?)(?![\w-])/g;
/**
 * "step 3 of src/workflows/...": the workflows number their steps as the bank does, which a page must not
 * pin.
 */
const stepPattern =
  /\bsteps? \d+[a-z]?(?:(?:,|-| and| to| or)\s*\d+[a-z]?)* (?:of|in) `?(?:\.\.\/)?src\/workflows\//gi;

interface Mention {
  doc: string;
  line: number;
  text: string;
}

function mentions(pattern: RegExp, pick: (match: RegExpMatchArray) => string | undefined): Mention[] {
  return docs.flatMap((doc) =>
    readFileSync(path.join(root, doc), 'utf8')
      .split('\n')
      .flatMap((content, index) =>
        [...content.matchAll(pattern)].flatMap((match) => {
          const text = pick(match);
          return text === undefined ? [] : [{ doc, line: index + 1, text }];
        }),
      ),
  );
}

/** A segment with `*`, `{a,b}` or a `<placeholder>` as a regular expression over one directory entry. */
function segmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(\*|<[\w-]+>|\{[^}]*\})/)
    .map((part) => {
      if (part === '*') return '[^/]*';
      if (/^<[\w-]+>$/.test(part)) return '[^/]+';
      if (part.startsWith('{')) return `(?:${part.slice(1, -1).split(',').map(escape).join('|')})`;
      return escape(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** A folder and every folder under it, for `**`. */
function descendantFolders(dir: string): string[] {
  if (!statSync(dir).isDirectory()) return [];
  return [
    dir,
    ...readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => descendantFolders(path.join(dir, entry.name))),
  ];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isPattern = (segment: string) => /[*{<]/.test(segment);

/**
 * Whether a named path exists. A `<placeholder>` names what a run writes (`bench/results/<timestamp>.json`),
 * so only the folder it goes in must exist; a `*` must match at least one entry, and `**` any depth of
 * folders.
 */
function pathExists(named: string): boolean {
  const segments = named.replace(/\/$/, '').split('/');
  const last = segments.length - 1;
  let candidates = [root];
  for (const [index, segment] of segments.entries()) {
    if (/^<[\w-]+>/.test(segment) && index === last) return candidates.length > 0;
    if (segment === '**') {
      candidates = candidates.flatMap(descendantFolders);
      continue;
    }
    if (!isPattern(segment)) {
      candidates = candidates.map((dir) => path.join(dir, segment)).filter((entry) => existsSync(entry));
      continue;
    }
    const pattern = segmentPattern(segment);
    candidates = candidates
      .filter((dir) => statSync(dir).isDirectory())
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((entry) => pattern.test(entry))
          .map((entry) => path.join(dir, entry)),
      );
  }
  return candidates.length > 0;
}

/** Every code file of the repository, comments removed: a name only a comment mentions is not used. */
function codeText(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'results') walk(full);
      } else if (/\.(?:[cm]?[jt]s|sh)$/.test(entry.name) || dir.endsWith('.ci')) {
        files.push(full);
      }
    }
  };
  for (const folder of codeFolders) if (existsSync(path.join(root, folder))) walk(path.join(root, folder));
  return files
    .map((file) => {
      const text = readFileSync(file, 'utf8');
      return /\.(?:[cm]?[jt]s)$/.test(file)
        ? text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
        : text.replace(/^\s*#.*$/gm, '');
    })
    .join('\n');
}

/**
 * The TEMPORAL_* variables Temporal's own configuration (`@temporalio/envconfig`) reads, as that package
 * says.
 */
function temporalEnvConfigVariables(): string[] {
  const lib = path.dirname(createRequire(import.meta.url).resolve('@temporalio/envconfig'));
  const source = readdirSync(lib)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(path.join(lib, name), 'utf8'))
    .join('\n');
  return [...new Set(source.match(/\bTEMPORAL_[A-Z0-9_]+/g))];
}

const report = (found: Mention[], why: (text: string) => string) =>
  found.map(({ doc, line, text }) => `${doc}:${line}: ${why(text)}`);

describe('what README.md and docs/*.md name exists', () => {
  it('every src/, bench/, scripts/, test/ and devkit/ path a page names is in the repository', () => {
    const named = mentions(pathPattern, (match) => match[1]?.replace(/[.,:;]+$/, ''));
    expect(named.length).toBeGreaterThan(100);
    expect(
      report(
        named.filter(({ text }) => !pathExists(text)),
        (text) => `${text} does not exist`,
      ),
    ).toEqual([]);
  });

  it('every environment variable or constant a page names is read or used by the code, or by the tool named here', () => {
    const code = codeText();
    const temporal = temporalEnvConfigVariables();
    const used = (name: string) =>
      new RegExp(`(['"\`]${name}['"\`]|\\.${name}\\b|\\b${name}\\??\\s*[:=]|\\$\\{?${name}\\b)`).test(code);
    const known = (name: string, prefix: boolean) =>
      name in readElsewhere ||
      (prefix ? temporal.some((variable) => variable.startsWith(`${name}_`)) : temporal.includes(name)) ||
      used(prefix ? `${name}_` : name);
    const named = mentions(namePattern, (match) => `${match[1]}${match[2]}`);
    expect(temporal).toContain('TEMPORAL_ADDRESS');
    expect(named.length).toBeGreaterThan(100);
    expect(
      report(
        named.filter(({ text }) => !known(text.replace(/_$/, ''), text.endsWith('_'))),
        (text) =>
          `${text} is read by no code of bankflow nor by Temporal's envconfig, and is not in readElsewhere`,
      ),
    ).toEqual([]);
  });

  it('names no variable in readElsewhere that no page mentions any more', () => {
    const named = new Set(mentions(namePattern, (match) => match[1]).map(({ text }) => text));
    expect(Object.keys(readElsewhere).filter((name) => !named.has(name))).toEqual([]);
  });

  it('cites no step number of a workflow file (the workflows number their steps as the bank does)', () => {
    expect(
      report(
        mentions(stepPattern, (match) => match[0]),
        (text) => `"${text}": drop the step number`,
      ),
    ).toEqual([]);
  });
});
