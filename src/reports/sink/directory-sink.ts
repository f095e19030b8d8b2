import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ChunkWriter, ReportSink } from './report-sink.js';

/** The temporary files of writes under way, which no listing shows. */
const temporaryFile = /^\..*\.tmp$/;

/**
 * Writes `file` all at once or not at all: the content goes to a temporary file in the same directory, is
 * flushed to disk, then renamed over `file`. A reader never sees a half-written report, and a retried
 * activity simply writes it again.
 */
async function writeAtomically(file: string, produce: ChunkWriter): Promise<void> {
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

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The embedded default: objects are files under one directory (REPORTS_DIR), a key's `/` a subdirectory. Only
 * a fleet whose workers all mount that directory can share it.
 */
export function directorySink(root: string): ReportSink {
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  return {
    locate: fileOf,
    put: (key, text) => writeAtomically(fileOf(key), (write) => write(text)),
    write: (key, produce) => writeAtomically(fileOf(key), produce),
    async get(key) {
      try {
        return await readFile(fileOf(key), 'utf8');
      } catch (error) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    async list(prefix) {
      // Only the directory the prefix names is walked, not the whole root.
      const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/') + 1) : '';
      let entries: { name: string; parentPath: string; isFile(): boolean }[];
      try {
        entries = await readdir(fileOf(base), { recursive: true, withFileTypes: true });
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
      return entries
        .filter((entry) => entry.isFile() && !temporaryFile.test(entry.name))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .filter((key) => key.startsWith(prefix))
        .sort();
    },
    async deletePrefix(prefix) {
      if (prefix.endsWith('/')) {
        await rm(fileOf(prefix), { recursive: true, force: true });
        return;
      }
      const keys = await this.list(prefix);
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },
  };
}
