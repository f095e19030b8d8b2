#!/usr/bin/env node
// Links package.json's commands (`bankflow`) into the checkout's own node_modules/.bin, which npm does for a
// package's dependents but never for the package itself: with it, `node_modules/.bin/bankflow`, npm scripts
// and an npx that looks there run the checkout's build. A relative link, made again only when it is missing
// or points elsewhere. Where links cannot be made (Windows without the right), it says so and goes on.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Links `root`'s commands into `root`/node_modules/.bin; returns the links it made. */
export function linkBin(root = '.') {
  const { name: packageName, bin = {} } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const binDir = path.join(root, 'node_modules', '.bin');
  // Nothing installed yet: nothing would find the link.
  if (!lstatSync(path.join(root, 'node_modules'), { throwIfNoEntry: false })) return [];
  const made = [];
  for (const [name, file] of Object.entries(typeof bin === 'string' ? { [packageName]: bin } : bin)) {
    const link = path.join(binDir, name);
    const target = path.relative(binDir, path.join(root, file));
    try {
      if ((lstatSync(path.join(root, file)).mode & 0o111) === 0) chmodSync(path.join(root, file), 0o755);
      if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() && readlinkSync(link) === target) {
        continue;
      }
      mkdirSync(binDir, { recursive: true });
      // Made beside it and renamed over it, so the command is never missing for a process looking meanwhile.
      const temporary = `${link}.${process.pid}.tmp`;
      rmSync(temporary, { force: true });
      symlinkSync(target, temporary);
      renameSync(temporary, link);
      made.push(link);
    } catch (error) {
      console.warn(`could not link ${link} to ${target} (${error.code ?? error.message}): run node ${file}`);
    }
  }
  return made;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) linkBin();
