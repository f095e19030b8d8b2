#!/usr/bin/env node
// Bundles the compiled workflows once at build time, so `bankflow worker` starts from this file instead of
// running webpack at every start (src/workflow-bundle.ts). Only when something the bundles in dist/ were made
// of changed since: the build id of a worker is the hash of its plain bundle (src/temporal/
// worker-deployment.ts), so a bundle left in place keeps its build id, and a changed workflow module makes a
// new bundle and a new build id. `--force` bundles anyway.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readIfExists, sha256, writeIfChanged } from './build-files.mjs';

/** Which inputs the bundles in dist/ were made of, and what they hashed to (outside dist/src: not packed). */
export const bundleRecordFile = path.join('dist', '.workflow-bundles.json');

/**
 * What every bundle is made of besides its own modules: webpack's and the SDK's versions (the lock), the
 * bundler's options and this script.
 */
const fixedInputs = ['package-lock.json', 'scripts/bundle-workflows.mjs', 'dist/src/workflow-bundle.js'];

/** One hash of the inputs' contents, and of the checkout's path, which webpack writes into a bundle. */
function inputsHash(files) {
  const hash = createHash('sha256').update(process.cwd());
  for (const file of [...new Set([...fixedInputs, ...files])].sort()) {
    hash.update(`\0${file}\0${sha256(readIfExists(file) ?? 'missing')}`);
  }
  return hash.digest('hex');
}

/**
 * The checkout's files a bundle was made of, from its inline source map: each module outside node_modules
 * (a TypeScript source stands for its compiled module and that module's map, which webpack read), and every
 * compiled workflow file. Undefined when the map cannot be read: the next build bundles again.
 */
function bundledFiles(code) {
  const map = /sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(
    code,
  );
  if (!map?.[1]) return undefined;
  const { sources } = JSON.parse(Buffer.from(map[1], 'base64').toString('utf8'));
  // Webpack names modules by their real path.
  const root = realpathSync(process.cwd());
  const files = [];
  for (const source of sources ?? []) {
    if (!path.isAbsolute(source)) continue;
    const file = path.relative(root, source);
    if (file.startsWith('..') || file.split(path.sep).includes('node_modules')) continue;
    files.push(file);
    if (file.startsWith(`dist${path.sep}`)) continue;
    const compiled = path.join('dist', file.replace(/\.ts$/, '.js'));
    files.push(compiled, `${compiled}.map`);
  }
  if (files.length === 0) return undefined;
  const workflows = path.join('dist', 'src', 'workflows');
  for (const entry of readdirSync(workflows, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.push(path.join(entry.parentPath, entry.name));
  }
  return [...new Set(files)].sort();
}

function readRecord() {
  try {
    return JSON.parse(readIfExists(bundleRecordFile, 'utf8') ?? 'null');
  } catch {
    return null;
  }
}

/** Whether the bundles in place were made of the inputs there are now, and are as they were written. */
function upToDate(record) {
  return (
    Array.isArray(record?.files) &&
    record.inputs === inputsHash(record.files) &&
    Object.keys(record.outputs ?? {}).length > 0 &&
    Object.entries(record.outputs).every(([file, hash]) => sha256(readIfExists(file) ?? '') === hash)
  );
}

/** The bundle files the last bundling wrote, relative to the checkout: the build's own outputs. */
export const recordedBundles = () => Object.keys(readRecord()?.outputs ?? {});

/** Bundles the workflows unless dist/'s bundles are up to date; returns whether it bundled. */
export async function bundleWorkflowsIfChanged({ force = false } = {}) {
  if (!force && upToDate(readRecord())) {
    console.log('workflow bundles up to date: no module of theirs changed since they were made');
    return false;
  }
  const { bundleWorkflows, prebuiltWorkflowBundlePath } = await import('../dist/src/workflow-bundle.js');
  const outputs = {};
  let files = [];
  // Two bundles: traces only for the workers that trace (src/workflow-bundle.ts says why).
  for (const traced of [false, true]) {
    const { code } = await bundleWorkflows(traced);
    const file = path.relative(process.cwd(), prebuiltWorkflowBundlePath(traced));
    writeIfChanged(file, code);
    outputs[file] = sha256(code);
    const madeOf = bundledFiles(code);
    files = files && madeOf ? [...files, ...madeOf] : undefined;
  }
  if (files) files = [...new Set(files)].sort();
  const record = { inputs: files ? inputsHash(files) : null, files: files ?? null, outputs };
  writeIfChanged(bundleRecordFile, `${JSON.stringify(record, null, 1)}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleWorkflowsIfChanged({ force: process.argv.includes('--force') });
}
