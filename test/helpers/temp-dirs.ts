import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Fresh directories in the system temp folder, named `<prefix>XXXXXX`, removed with their contents after the
 * tests of the file or describe block that called this: `const tempDir = tempDirs('bankflow-x-')` there, then
 * `tempDir()` for each new directory, inside a test too.
 */
export function tempDirs(prefix: string): () => string {
  const created: string[] = [];
  afterAll(async () => {
    await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    created.push(dir);
    return dir;
  };
}
