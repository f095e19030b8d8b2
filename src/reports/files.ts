import type { JobWindow } from '../contract/jobs.js';

/** An instant as a file-name part: `2026-11-21T09:00:00.000Z` -> `20261121T090000Z`. */
export function fileInstant(iso: string): string {
  return iso.replace(/\.000Z$/, 'Z').replace(/[-:]/g, '');
}

/** `<job>_<from>_<to>`: a report names its job and its window, so re-running a window replaces its report. */
export function windowFileBase(job: string, window: JobWindow): string {
  return `${job}_${fileInstant(window.from)}_${fileInstant(window.to)}`;
}

/** The sink keys under which a report run keeps the pages it fetched until the report is written. */
export function stagingPrefix(stagingKey: string): string {
  return `.staging/${stagingKey}/`;
}

export function stagedPageKey(stagingKey: string, page: number): string {
  return `${stagingPrefix(stagingKey)}page-${String(page).padStart(6, '0')}.ndjson`;
}
