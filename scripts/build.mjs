#!/usr/bin/env node
// `npm run build` (and so `npm start`), and `prepare` (`npm install` in the checkout, `npm pack`): builds
// dist/ from src/ and devkit/, each step only for what changed since the last build, because a running
// `npm start` (its workers, its servers) loads code from dist/ meanwhile. dist/ is never emptied:
//   1. tsc, incremental (dist/.tsbuildinfo), not even started when no source, tsconfig or the lock changed
//      since the last build that succeeded (dist/.build-inputs); every output written only when it changed,
//      and whole (scripts/build-files.mjs);
//   2. the assets tsc does not copy (scripts/copy-assets.mjs), only those that changed;
//   3. the workflow bundles (scripts/bundle-workflows.mjs), only when one of their modules changed;
//   4. the outputs whose source is gone (a deleted or renamed module's .js, .d.ts and maps), removed one by
//      one.
// It also links `bankflow` into node_modules/.bin (scripts/link-bin.mjs). One build at a time per checkout
// (dist/.build.lock): a second one waits, then finds nothing left to do.
//
// `npx bankflow` in the checkout installs the checkout itself into npx's cache, as a link, and runs this as
// its `prepare` (npm 11's npx runs a project's own command that way, whatever node_modules/.bin holds):
// there, when dist/ is built, nothing is rebuilt, and the command starts at once from the build as it is.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowsIfChanged, recordedBundles } from './bundle-workflows.mjs';
import { lockBuild, readIfExists, sourceInputs, writeIfChanged } from './build-files.mjs';
import { copyAssets } from './copy-assets.mjs';
import { linkBin } from './link-bin.mjs';

const outDir = 'dist';
const stampFile = path.join(outDir, '.build-inputs');
const buildInfoFile = path.join(outDir, '.tsbuildinfo');
const compileInputs = () => sourceInputs(['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']);

/**
 * Whether a module tsc would write is missing from dist/ (a file deleted there by hand): tsc's incremental
 * state does not look at its outputs, so such a build starts over without it.
 */
function missingModules() {
  for (const root of ['src', 'devkit']) {
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const module = path.join(outDir, entry.parentPath, entry.name.replace(/\.ts$/, '.js'));
      if (!existsSync(module)) return true;
    }
  }
  return false;
}

/** Compiles src/ and devkit/ into dist/; returns how many files it wrote, or undefined on errors. */
async function compile() {
  const { default: ts } = await import('typescript');
  const formatHost = {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  };
  const report = (diagnostics) => {
    if (diagnostics.length === 0) return;
    const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    process.stderr.write(format(diagnostics, formatHost));
  };
  let unrecoverable;
  const config = ts.getParsedCommandLineOfConfigFile(
    path.resolve('tsconfig.build.json'),
    { incremental: true, tsBuildInfoFile: path.resolve(buildInfoFile) },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => (unrecoverable = diagnostic) },
  );
  if (!config || config.errors.length > 0) {
    report(config?.errors ?? [unrecoverable]);
    return undefined;
  }
  if (missingModules()) rmSync(buildInfoFile, { force: true });
  const program = ts.createIncrementalProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
    host: ts.createIncrementalCompilerHost(config.options),
  });
  // What tsc reports, in its order: a file that does not parse hides the type errors.
  const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
  if (diagnostics.length === 0) diagnostics.push(...program.getOptionsDiagnostics());
  if (diagnostics.length === 0) diagnostics.push(...program.getGlobalDiagnostics());
  if (diagnostics.length === 0) diagnostics.push(...program.getSemanticDiagnostics());
  let written = 0;
  const emitted = program.emit(undefined, (file, text, byteOrderMark) => {
    if (writeIfChanged(file, byteOrderMark ? `\ufeff${text}` : text) && file !== path.resolve(buildInfoFile))
      written += 1;
  });
  diagnostics.push(...emitted.diagnostics);
  report(diagnostics);
  return diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    ? undefined
    : written;
}

/** What a file under dist/ may have been built from, relative to the checkout. */
function sourcesOf(built) {
  const file = built.replace(/\.map$/, '');
  const declaration = /\.d\.([cm]?)ts$/.exec(file);
  if (declaration) return [`${file.slice(0, declaration.index)}.${declaration[1]}ts`];
  const module = /\.([cm]?)js$/.exec(file);
  if (module) return [file, `${file.slice(0, module.index)}.${module[1]}ts`];
  return [file];
}

/**
 * Removes the files under dist/src and dist/devkit whose source is gone, and the folders that leaves empty;
 * `keep` (the workflow bundles) stays. Returns the removed files.
 */
function removeStaleOutputs(keep) {
  const removed = [];
  for (const root of ['src', 'devkit']) {
    const dir = path.join(outDir, root);
    if (!existsSync(dir)) continue;
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const built = path.join(entry.parentPath, entry.name);
      if (keep.has(built) || sourcesOf(path.relative(outDir, built)).some((file) => existsSync(file)))
        continue;
      rmSync(built, { force: true });
      removed.push(built);
    }
    const folders = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort((a, b) => b.length - a.length);
    for (const folder of folders) {
      if (readdirSync(folder).length === 0 && !existsSync(path.relative(outDir, folder))) rmdirSync(folder);
    }
  }
  return removed;
}

async function build() {
  const started = Date.now();
  const steps = [];
  // Listed before compiling, so a file saved during the build makes the next one compile again.
  const inputs = compileInputs();
  if (readIfExists(stampFile, 'utf8') === inputs && !missingModules()) {
    steps.push('nothing to compile');
  } else {
    rmSync(stampFile, { force: true });
    const compiling = Date.now();
    const written = await compile();
    if (written === undefined) return false;
    writeIfChanged(stampFile, inputs);
    steps.push(`compiled (${written} files written) in ${((Date.now() - compiling) / 1000).toFixed(1)} s`);
  }
  const assets = copyAssets(outDir);
  steps.push(`${assets.length} assets copied`);
  steps.push((await bundleWorkflowsIfChanged()) ? 'workflows bundled' : 'workflow bundles unchanged');
  const removed = removeStaleOutputs(new Set(recordedBundles()));
  for (const file of removed) console.log(`removed ${file}: its source is gone`);
  steps.push(`${removed.length} stale outputs removed`);
  console.log(`built ${outDir}/ in ${((Date.now() - started) / 1000).toFixed(1)} s: ${steps.join(', ')}`);
  return true;
}

const underNpx = process.env.npm_lifecycle_event === 'prepare' && process.env.npm_command === 'exec';
if (underNpx && existsSync(path.join(outDir, 'src', 'cli', 'main.js'))) {
  linkBin();
} else {
  const release = lockBuild(outDir);
  try {
    linkBin();
    if (!(await build())) process.exitCode = 1;
  } finally {
    release();
  }
}
