#!/usr/bin/env node
// tsc compiles only TypeScript: copies the page files (HTML, browser scripts, styles) and the CommonJS
// modules the Temporal SDK loads by path (src/temporal/failure-converter.cjs) under src/ and devkit/ to the
// same place under the build's directory (dist/ unless given: scripts/test-build.mjs names its own), where
// the compiled code looks for them. Only the files whose content differs are written.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from './build-files.mjs';

const assetExtensions = new Set(['.html', '.js', '.cjs', '.css']);

/** Copies the assets into `outDir`; returns the ones it wrote. */
export function copyAssets(outDir) {
  const written = [];
  for (const root of ['src', 'devkit']) {
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !assetExtensions.has(path.extname(entry.name))) continue;
      const from = path.join(entry.parentPath, entry.name);
      if (writeIfChanged(path.join(outDir, from), readFileSync(from))) written.push(from);
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) copyAssets('dist');
