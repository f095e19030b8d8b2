import { readFileSync } from 'node:fs';

/** One `npx bankflow ...` line of a page's shell examples, with what it is meant to do. */
export interface DocExample {
  file: string;
  line: string;
  /** The exit code a trailing `# exits N` announces; 0 otherwise. */
  exitCode: number;
  /** What `# exits N: text ...` says the command prints, up to its `...`. */
  says: string | undefined;
  /** `# runs until Ctrl-C`: a server, stopped once it says it runs. */
  server: boolean;
}

/** Every line of a ```sh block that runs `npx bankflow`, continuation lines (`\`) joined, in page order. */
export function docExamples(file: string): DocExample[] {
  const examples: DocExample[] = [];
  let inShell = false;
  let pending = '';
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.startsWith('```')) {
      inShell = !inShell && text.trim() === '```sh';
      continue;
    }
    if (!inShell) continue;
    const line = pending + text;
    if (line.trimEnd().endsWith('\\')) {
      pending = `${line.trimEnd().slice(0, -1)} `;
      continue;
    }
    pending = '';
    if (!line.includes('npx bankflow')) continue;
    const exits = /#.*\bexits (\d+)(?:: (.*))?/.exec(line);
    examples.push({
      file,
      line: line.trim(),
      exitCode: exits ? Number(exits[1]) : 0,
      says: exits?.[2]?.split(' ...')[0],
      server: /# runs until Ctrl-C/.test(line),
    });
  }
  return examples;
}
