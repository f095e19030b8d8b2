// What the build scripts share (scripts/build.mjs, scripts/test-build.mjs and the steps they run): a build
// writes into a directory that running processes load from (`npm start`'s workers, the tests' processes), so
// it never empties it, writes only the files whose content changed, and replaces each one whole (a process
// loading it meanwhile reads the old file or the new one, never half of one).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** `file`'s content, or undefined when there is no such file. */
export function readIfExists(file, encoding) {
  try {
    return readFileSync(file, encoding);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Writes `data` to `file` unless it already holds exactly that (so its modification time stays), through a
 * temporary file renamed over it. Returns whether it wrote.
 */
export function writeIfChanged(file, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const current = readIfExists(file);
  if (current !== undefined && current.equals(bytes)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return true;
}

/**
 * The build's inputs, each with a hash of its content: every file under src/ and devkit/ and the `extra`
 * files. An edited, new, deleted or renamed file makes another list (a file only touched, or put back as it
 * was, does not), so a build made from the same list needs no compiling.
 */
export function sourceInputs(extra) {
  const files = [...extra];
  for (const root of ['src', 'devkit']) {
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(path.join(entry.parentPath, entry.name));
    }
  }
  return files
    .sort()
    .map((file) => `${file} ${sha256(readIfExists(file) ?? 'missing')}`)
    .join('\n');
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/**
 * Takes `dir`'s build lock, waiting while another build on this machine holds it (two `npm start`s, or a
 * benchmark's build beside one), and returns the function that releases it. A lock whose process is gone is
 * taken over.
 */
export function lockBuild(dir) {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '.build.lock');
  const me = `${os.hostname()} ${process.pid}`;
  let told = false;
  for (;;) {
    try {
      writeFileSync(lockFile, me, { flag: 'wx' });
      return () => {
        if (readIfExists(lockFile, 'utf8') === me) rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = readIfExists(lockFile, 'utf8') ?? '';
    const [host, pid] = holder.split(' ');
    // Empty only between its creation and its first write, unless that process died in between.
    const abandoned =
      holder === '' && Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 10_000;
    if (abandoned || (host === os.hostname() && !alive(Number(pid)))) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (!told) {
      console.log(`waiting for the build process ${holder || '(starting)'} holds on ${dir}`);
      told = true;
    }
    Atomics.wait(pause, 0, 0, 200);
  }
}
