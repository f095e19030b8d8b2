import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DatabaseAccess } from './server-config.js';
import { SupervisedProcess } from './supervised-process.js';

export interface PostgresOptions {
  binDir: string;
  /** The cluster's directory; PostgreSQL's data lives in `postgres/` under it. */
  clusterDir: string;
  port: number;
  logger: Logger;
}

export interface RunningPostgres {
  access: DatabaseAccess;
  process: SupervisedProcess;
}

const superuser = 'temporal';

/**
 * PostgreSQL refuses to run as root: as root, bankflow runs it as the `postgres` user the Debian package
 * creates, and gives it the data directory.
 */
export function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error(
      "PostgreSQL cannot run as root and there is no `postgres` user to run it as: install Debian's " +
        '`postgresql` package (it creates the user), or run bankflow as a non-root user',
    );
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function runAs(user: { uid: number; gid: number } | undefined, command: string, args: string[]) {
  return spawnSync(command, args, { encoding: 'utf8', ...(user ?? {}) });
}

/** A private cluster, created once: its own superuser with a generated password, TCP on 127.0.0.1 only. */
function initialise(options: PostgresOptions, user: { uid: number; gid: number } | undefined): void {
  const dataDir = path.join(options.clusterDir, 'postgres');
  const passwordFile = path.join(options.clusterDir, 'postgres-password');
  mkdirSync(options.clusterDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(passwordFile))
    writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  if (user) {
    chownSync(dataDir, user.uid, user.gid);
    chownSync(passwordFile, user.uid, user.gid);
  }
  if (runAs(user, 'test', ['-w', dataDir, '-a', '-r', passwordFile]).status !== 0) {
    throw new Error(
      `PostgreSQL runs as the postgres user, which cannot reach ${dataDir}: set BANKFLOW_DATA_DIR to a ` +
        'directory every user can traverse (not under /root)',
    );
  }
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const init = runAs(user, path.join(options.binDir, 'initdb'), [
    '--pgdata',
    dataDir,
    '--username',
    superuser,
    `--pwfile=${passwordFile}`,
    '--auth-local=scram-sha-256',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  if (init.status !== 0)
    throw new Error(`initdb failed: ${`${init.stdout}${init.stderr}`.trim().slice(-1_000)}`);
}

function ready(binDir: string, port: number): boolean {
  const check = spawnSync(path.join(binDir, 'pg_isready'), ['--host', '127.0.0.1', '--port', String(port)]);
  return check.status === 0;
}

/** Starts the private PostgreSQL (initialising it the first time) and waits until it accepts connections. */
export async function startPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const user = postgresUser();
  initialise(options, user);
  const dataDir = path.join(options.clusterDir, 'postgres');
  const postgres = new SupervisedProcess(
    {
      name: 'postgres',
      command: path.join(options.binDir, 'postgres'),
      args: [
        '-D',
        dataDir,
        '-p',
        String(options.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      user,
      restart: true,
      stopSignal: 'SIGINT',
      graceMs: 30_000,
    },
    options.logger,
  );
  postgres.start();
  const deadline = Date.now() + 60_000;
  while (!ready(options.binDir, options.port)) {
    if (!postgres.running || Date.now() > deadline) {
      await postgres.stop();
      throw new Error(
        `PostgreSQL did not start on 127.0.0.1:${options.port}: ${postgres.recentOutput.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const password = readFileSync(path.join(options.clusterDir, 'postgres-password'), 'utf8').trim();
  return { access: { host: '127.0.0.1', port: options.port, user: superuser, password }, process: postgres };
}
