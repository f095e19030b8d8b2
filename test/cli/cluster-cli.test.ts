import { chmodSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('bankflow-cluster-cli-');

/** A directory with `initdb` and `postgres` in it: enough to get past finding PostgreSQL, never run. */
function postgresBin(): string {
  const bin = tempDir();
  for (const name of ['initdb', 'postgres']) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 1\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  return bin;
}

describe('bankflow cluster (the full run is npm run cluster:test)', () => {
  it('refuses to start on a taken port, naming it, what needs it and the variable that moves it', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const dataDir = tempDir();
    try {
      const result = await runCli(['cluster'], {
        CLUSTER_POSTGRES_BIN: postgresBin(),
        CLUSTER_POSTGRES_PORT: String(port),
        BANKFLOW_DATA_DIR: dataDir,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `CLUSTER_POSTGRES_PORT: port ${port} (PostgreSQL) is in use: stop what listens there`,
      );
      expect(result.stderr).toContain('or set CLUSTER_POSTGRES_PORT to another port');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses a frontend port whose membership ports the server cannot store', async () => {
    const result = await runCli(['cluster'], {
      CLUSTER_POSTGRES_BIN: postgresBin(),
      TEMPORAL_DEV_PORT: '40000',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TEMPORAL_DEV_PORT: 40000 puts the server');
  });
});
