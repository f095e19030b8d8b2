import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { findPostgres, type PostgresInstaller } from '../../devkit/stack/cluster/postgres-install.js';
import { SupervisedProcess } from '../../devkit/stack/cluster/supervised-process.js';
import { buildStack } from '../../devkit/stack/stack-parts.js';
import { provideServerBinaries } from '../../devkit/temporal/server-binaries.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const logger = createLogger('silent');
const tempDir = tempDirs('bankflow-cluster-');

/** A child that says it is up, then idles; `ignoreTerm` makes it shrug off SIGTERM. */
function fakeChild(
  name: string,
  options: { ignoreTerm?: boolean; restart?: boolean; graceMs?: number } = {},
) {
  const script = `${options.ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} console.log('up'); setInterval(() => {}, 1000);`;
  return new SupervisedProcess(
    {
      name,
      command: process.execPath,
      args: ['-e', script],
      restart: options.restart,
      graceMs: options.graceMs,
    },
    logger,
  );
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('bankflow cluster: its processes', () => {
  it('stops the children in reverse order, killing one that ignores its stop signal', async () => {
    const order: string[] = [];
    const children = [
      fakeChild('database'),
      fakeChild('server', { ignoreTerm: true, graceMs: 500 }),
      fakeChild('worker'),
    ];
    const stack = await buildStack(logger, async (parts) => {
      for (const child of children) {
        child.start();
        await until(() => child.recentOutput.includes('up'));
        parts.add(async () => {
          await child.stop();
          order.push(child.spec.name);
        });
      }
    });
    const pids = children.map((child) => child.pid);
    expect(pids.every(alive)).toBe(true);
    await stack.stop();
    expect(order).toEqual(['worker', 'server', 'database']);
    expect(pids.some(alive)).toBe(false);
  });

  it('stops what already started when a later part fails', async () => {
    const first = fakeChild('first');
    await expect(
      buildStack(logger, async (parts) => {
        first.start();
        parts.add(() => first.stop());
        await until(() => first.recentOutput.includes('up'));
        throw new Error('port 7233 is in use');
      }),
    ).rejects.toThrow('port 7233 is in use');
    expect(alive(first.pid)).toBe(false);
  });

  it('restarts a supervised child that dies by itself, and not once it is stopped', async () => {
    const server = fakeChild('server', { restart: true });
    server.start();
    await until(() => server.recentOutput.includes('up'));
    const firstPid = server.pid;
    process.kill(firstPid ?? 0, 'SIGKILL');
    await until(() => server.restarts === 1 && server.running && server.pid !== firstPid);
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(server.running).toBe(false);
    expect(server.restarts).toBe(1);
  });

  it('keeps the end of what a child said, for the error when it does not come up', async () => {
    const broken = new SupervisedProcess(
      {
        name: 'broken',
        command: process.execPath,
        args: ['-e', "console.error('no database'); process.exit(3)"],
      },
      logger,
    );
    broken.start();
    await until(() => !broken.running && broken.recentOutput.includes('no database'));
    expect(broken.restarts).toBe(0);
  });
});

describe('bankflow cluster: finding PostgreSQL', () => {
  const fakeBin = () => {
    const bin = path.join(tempDir(), '15', 'bin');
    mkdirSync(bin, { recursive: true });
    for (const name of ['initdb', 'postgres']) {
      writeFileSync(path.join(bin, name), '#!/bin/sh\n');
      chmodSync(path.join(bin, name), 0o755);
    }
    return bin;
  };
  const refusing = (reason: string): PostgresInstaller => ({
    unavailable: () => reason,
    install: () => ({ ok: false, output: '' }),
  });

  it('takes CLUSTER_POSTGRES_BIN, else the first directory holding initdb and postgres', () => {
    const bin = fakeBin();
    expect(findPostgres({ explicitBin: bin })).toBe(bin);
    expect(
      findPostgres({ candidates: [path.join(tempDir(), 'none'), bin], installer: refusing('unused') }),
    ).toBe(bin);
    expect(() => findPostgres({ explicitBin: '/opt/none' })).toThrow(
      /CLUSTER_POSTGRES_BIN=\/opt\/none holds no initdb and postgres\. Install it \(Debian\/Ubuntu: `sudo apt-get install postgresql`\)/,
    );
  });

  it('installs it when missing, and says how to when it cannot', () => {
    expect(() =>
      findPostgres({
        candidates: [],
        installer: refusing('it is not installed and apt-get is not available'),
      }),
    ).toThrow(
      /PostgreSQL is needed for `bankflow cluster` and it is not installed and apt-get is not available\. Install it/,
    );
    const failing: PostgresInstaller = {
      unavailable: () => undefined,
      install: () => ({ ok: false, output: 'E: Unable to locate package postgresql' }),
    };
    const progress = new PassThrough();
    expect(() => findPostgres({ candidates: [], installer: failing, progress })).toThrow(
      /apt-get install postgresql failed: E: Unable to locate package postgresql/,
    );
    const dirs: string[] = [];
    const installing: PostgresInstaller = {
      unavailable: () => undefined,
      install: () => {
        dirs.push(fakeBin());
        return { ok: true, output: '' };
      },
    };
    expect(findPostgres({ candidates: dirs, installer: installing, progress })).toBe(dirs[0]);
  });
});

describe('bankflow cluster: building the Temporal server', () => {
  it('says how to get Go when the binaries are not cached and Go is not there to build them', async () => {
    await expect(
      provideServerBinaries({ pathEnv: tempDir(), cacheEnv: { XDG_CACHE_HOME: tempDir() } }),
    ).rejects.toThrow(
      /Cannot provide the Temporal server: no Go toolchain is on PATH to build it\. Install Go .* or use `npm start`/,
    );
  });
});
