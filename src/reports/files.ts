import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { JobWindow } from '../contract/jobs.js';

/** An instant as a file-name part: `2026-11-21T09:00:00.000Z` -> `20261121T090000Z`. */
export function fileInstant(iso: string): string {
  return iso.replace(/\.000Z$/, 'Z').replace(/[-:]/g, '');
}

/** `<job>_<from>_<to>`: a report names its job and its window, so re-running a window replaces its report. */
export function windowFileBase(job: string, window: JobWindow): string {
  return `${job}_${fileInstant(window.from)}_${fileInstant(window.to)}`;
}

/** Where a report run keeps the pages it fetched until the report is written. */
export function stagingDir(reportsDir: string, stagingKey: string): string {
  return path.join(reportsDir, '.staging', stagingKey);
}

export function stagedPageFile(dir: string, page: number): string {
  return path.join(dir, `page-${String(page).padStart(6, '0')}.ndjson`);
}

/**
 * Writes `file` all at once or not at all: the content goes to a temporary file in the same directory, is
 * flushed to disk, then renamed over `file`. A reader never sees a half-written report, and a retried activity
 * simply writes it again.
 */
export async function writeAtomically(
  file: string,
  produce: (write: (chunk: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temporary = path.join(dir, `.${path.basename(file)}.${randomUUID()}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    await produce(async (chunk) => {
      await handle.write(chunk);
    });
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}

export function writeTextAtomically(file: string, text: string): Promise<void> {
  return writeAtomically(file, (write) => write(text));
}
