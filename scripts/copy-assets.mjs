#!/usr/bin/env node
// tsc compiles only TypeScript: copies the page files (HTML, browser scripts, styles) under src/ and devkit/ to the
// same place under dist/, where the compiled servers look for them.
import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';

const assetExtensions = new Set(['.html', '.js', '.css']);

for (const root of ['src', 'devkit']) {
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !assetExtensions.has(path.extname(entry.name))) continue;
    const from = path.join(entry.parentPath, entry.name);
    cpSync(from, path.join('dist', from));
  }
}
