import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as starter from '../../src/starter/index.js';

const read = (file: string) => readFileSync(file, 'utf8');

/** The code of a page's fenced blocks in one language. */
function blocks(text: string, language: string): string {
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))]
    .map((match) => match[1])
    .join('\n');
}

describe('the README and the pages it points to', () => {
  it('every public function of bankflow/starter is called in an example of docs/starter.md, which the README links', () => {
    const examples = blocks(read('docs/starter.md'), 'ts');
    const functions = Object.entries(starter)
      .filter(([, value]) => typeof value === 'function' && !/^class\s/.test(String(value)))
      .map(([name]) => name);
    expect(functions.length).toBeGreaterThan(20);
    expect(functions.filter((name) => !new RegExp(`\\b${name}\\(`).test(examples))).toEqual([]);
    expect(read('README.md')).toContain('](docs/starter.md)');
  });

  it('links the generated CLI and configuration references', () => {
    expect(read('README.md')).toContain('](docs/cli.md)');
    expect(read('README.md')).toContain('](docs/configuration.md)');
  });

  it('has no line over 200 characters', () => {
    const long = read('README.md')
      .split('\n')
      .map((line, index) => ({ line: index + 1, length: line.length }))
      .filter(({ length }) => length > 200);
    expect(long).toEqual([]);
  });

  it('links only to files that exist', () => {
    const pages = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
        .map((match) => match[1] ?? '')
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.join(path.dirname(page), target)))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
