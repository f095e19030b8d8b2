/**
 * What the package tests share: npm run outside the checkout, a copy of the checkout to pack, and what a
 * built tree imports. The pack itself happens once per run of test/package/install.test.ts, and every
 * installed copy starts from that tarball.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { outputOf, type CliResult } from '../helpers/cli.js';

/**
 * The environment of every process the package tests start: the repository's npm settings
 * (`npm_config_local_prefix` among them, which points npm at the checkout) and Node's module paths stay out,
 * so an installed project sees only its own node_modules. The registry, cache and proxy settings stay.
 */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const kept =
    /^(PATH|HOME|TMPDIR|HTTPS?_PROXY|NO_PROXY|npm_config_(registry|cache|userconfig|globalconfig|cafile|proxy|https_proxy|noproxy|strict_ssl))$/i;
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => kept.test(entry[0]) && entry[1] !== undefined,
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

export function run(command: string, args: string[], cwd: string, env = isolatedEnv()): Promise<CliResult> {
  const child = spawn(command, args, { cwd, env });
  child.stdin.end();
  return outputOf(child);
}

/**
 * The files a clone of this checkout holds, with the working tree's edits and new files (what git does not
 * ignore), copied into `dir` beside a link to the checkout's node_modules. Returns `dir`.
 */
export function copyOfCheckout(dir: string): string {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A tracked file deleted in the working tree is listed but absent.
  for (const file of listed.split('\0').filter((name) => name !== '' && existsSync(name))) {
    cpSync(file, path.join(dir, file), { preserveTimestamps: true });
  }
  symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

export async function succeeded(result: Promise<CliResult>, what: string): Promise<CliResult> {
  const done = await result;
  if (done.code !== 0) throw new Error(`${what} exited ${done.code}:\n${done.stdout}\n${done.stderr}`);
  return done;
}

/**
 * Every package a built (or source) module under `dir` imports, by name (`@scope/name` or `name`), Node's
 * built-ins left out.
 */
export function importedPackages(dir: string): Set<string> {
  const builtins = new Set(builtinModules);
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // The workflow bundles are self-contained: webpack already resolved their imports at build time.
    if (!entry.isFile() || !/\.(d\.ts|js|ts)$/.test(entry.name) || entry.name.startsWith('workflows-bundle'))
      continue;
    const source = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (fileName.startsWith('.') || fileName.startsWith('node:') || builtins.has(fileName)) continue;
      const parts = fileName.split('/');
      names.add(fileName.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? fileName));
    }
  }
  return names;
}
