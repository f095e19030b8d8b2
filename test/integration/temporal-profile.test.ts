import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { connectStarter } from '../../src/starter/connect.js';
import { connectWorkerConnection } from '../../src/temporal/connection.js';
import { testEnvKeys } from '../setup/shared.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('bankflow-profile-');

describe('the connection to Temporal through a temporal.toml profile', () => {
  it('a starter and a worker connect through a temporal.toml profile', async () => {
    const address = process.env[testEnvKeys.address] ?? '';
    const namespace = process.env[testEnvKeys.namespace] ?? 'default';
    const file = path.join(tempDir(), 'temporal.toml');
    // The default profile points nowhere: only the profile TEMPORAL_PROFILE names can connect.
    writeFileSync(
      file,
      `[profile.default]\naddress = "127.0.0.1:1"\n\n[profile.shared]\naddress = "${address}"\nnamespace = "${namespace}"\n\n` +
        `[profile.shared.grpc_meta]\nx-bankflow-test = "profile"\n`,
    );
    const env = { BANKFLOW_ENV: 'development', TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'shared' };

    const starter = await connectStarter(env);
    try {
      const described = await starter.client.workflowService.describeNamespace({ namespace });
      expect(described.namespaceInfo?.name).toBe(namespace);
    } finally {
      await starter.close();
    }

    const { temporal } = loadConfig(env);
    expect(temporal).toMatchObject({ address, namespace, metadata: { 'x-bankflow-test': 'profile' } });
    const worker = await connectWorkerConnection(temporal);
    try {
      const info = await worker.workflowService.getSystemInfo({});
      expect(info.serverVersion).toBeTruthy();
    } finally {
      await worker.close();
    }
  });
});
