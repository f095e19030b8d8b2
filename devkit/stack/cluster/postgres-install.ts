import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isExecutable } from '../../../src/temporal/cli-binary.js';

export class PostgresMissingError extends Error {
  constructor(reason: string) {
    super(
      `PostgreSQL is needed for \`bankflow cluster\` and ${reason}. Install it (Debian/Ubuntu: ` +
        '`sudo apt-get install postgresql`), or set CLUSTER_POSTGRES_BIN to the directory holding its `initdb` ' +
        'and `postgres`, then run again.',
    );
    this.name = 'PostgresMissingError';
  }
}

const debianRoot = '/usr/lib/postgresql';

function hasServer(bin: string): boolean {
  return isExecutable(path.join(bin, 'initdb')) && isExecutable(path.join(bin, 'postgres'));
}

/** Debian's server binaries (`/usr/lib/postgresql/<major>/bin`), newest major first. */
export function debianBinDirs(root = debianRoot): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((entry) => /^\d+$/.test(entry))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => path.join(root, major, 'bin'));
}

export interface PostgresInstaller {
  /** Why it cannot install, or undefined when it can. */
  unavailable(): string | undefined;
  install(): { ok: boolean; output: string };
}

/** apt-get, as root: the package `postgresql` brings the server binaries and the `postgres` user. */
export const aptInstaller: PostgresInstaller = {
  unavailable() {
    if (spawnSync('apt-get', ['--version']).status !== 0)
      return 'it is not installed and apt-get is not available';
    if (process.getuid?.() !== 0) return 'it is not installed and installing it with apt-get needs root';
    return undefined;
  },
  install() {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const run = (args: string[]) => spawnSync('apt-get', args, { encoding: 'utf8', env });
    const update = run(['update']);
    const install = update.status === 0 ? run(['install', '-y', 'postgresql']) : update;
    return { ok: install.status === 0, output: `${install.stdout}${install.stderr}`.trim().slice(-500) };
  },
};

/**
 * The directory holding `initdb` and `postgres`: CLUSTER_POSTGRES_BIN, else Debian's newest, else installed
 * with apt-get. Throws PostgresMissingError naming the fix otherwise.
 */
export function findPostgres(
  options: {
    explicitBin?: string | undefined;
    candidates?: string[];
    installer?: PostgresInstaller;
    progress?: NodeJS.WritableStream;
  } = {},
): string {
  if (options.explicitBin !== undefined) {
    if (hasServer(options.explicitBin)) return options.explicitBin;
    throw new PostgresMissingError(
      `CLUSTER_POSTGRES_BIN=${options.explicitBin} holds no initdb and postgres`,
    );
  }
  const candidates = () => options.candidates ?? debianBinDirs();
  const found = candidates().find(hasServer);
  if (found) return found;
  const installer = options.installer ?? aptInstaller;
  const unavailable = installer.unavailable();
  if (unavailable) throw new PostgresMissingError(unavailable);
  (options.progress ?? process.stderr).write('Installing PostgreSQL with apt-get (first time only)...\n');
  const installed = installer.install();
  if (!installed.ok) throw new PostgresMissingError(`apt-get install postgresql failed: ${installed.output}`);
  const afterInstall = candidates().find(hasServer);
  if (afterInstall) return afterInstall;
  throw new PostgresMissingError(`apt-get installed postgresql but no initdb was found under ${debianRoot}`);
}
