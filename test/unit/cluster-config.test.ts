import net from 'node:net';
import { ConfigError } from '../../src/config.js';
import { loadDevelopmentConfig } from '../../devkit/config.js';
import { clusterPorts } from '../../devkit/stack/cluster/cluster-stack.js';
import { assertPortsFree, namedServerPorts, serverPorts } from '../../devkit/stack/cluster/ports.js';
import { schemaSteps } from '../../devkit/stack/cluster/schema.js';
import { dynamicConfig, serverConfig, uiConfig } from '../../devkit/stack/cluster/server-config.js';
import { workerCommand } from '../../devkit/stack/cluster/worker-processes.js';
import { assertNoConflicts } from '../../src/temporal/search-attribute-registration.js';

const access = { host: '127.0.0.1', port: 55432, user: 'temporal', password: 'secret' };

/** bankflow cluster runs in development (it holds the sandbox bank), as `bankflow cluster` loads it. */
const developmentConfig = (env: Record<string, string>) =>
  loadDevelopmentConfig('cluster', { BANKFLOW_ENV: 'development', ...env });
describe('bankflow cluster: configuration', () => {
  it("lays out the server's ports from the frontend's as Temporal's own configs do", () => {
    expect(serverPorts(7233)).toEqual({
      frontend: 7233,
      frontendHttp: 7243,
      history: 7234,
      matching: 7235,
      worker: 7239,
      frontendMembership: 6933,
      historyMembership: 6934,
      matchingMembership: 6935,
      workerMembership: 6939,
    });
    expect(() => serverPorts(200)).toThrow(/TEMPORAL_DEV_PORT: 200 puts the server's membership ports/);
    expect(() => serverPorts(33_062)).toThrow(
      /outside 1-32767, which the server stores them in; use a port from 301 to 33061/,
    );
    expect(serverPorts(33_061).workerMembership).toBe(32_767);
    expect(() => serverPorts(0)).toThrow(ConfigError);
    expect(namedServerPorts(serverPorts(7233))).toContainEqual({
      port: 7234,
      what: 'Temporal history = TEMPORAL_DEV_PORT+1',
      variable: 'TEMPORAL_DEV_PORT',
    });
  });

  it('names the port in use, what needs it and the variable that moves it', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(
        assertPortsFree([{ port, what: 'PostgreSQL', variable: 'CLUSTER_POSTGRES_PORT' }]),
      ).rejects.toThrow(
        new RegExp(
          `CLUSTER_POSTGRES_PORT: port ${port} \\(PostgreSQL\\) is in use: .* or set CLUSTER_POSTGRES_PORT to another port`,
        ),
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    await expect(
      assertPortsFree([{ port, what: 'PostgreSQL', variable: 'CLUSTER_POSTGRES_PORT' }]),
    ).resolves.toBe(undefined);
  });

  it('checks every port it binds, and not the sandbox when BANK_BASE_URL points elsewhere', () => {
    const withSandbox = clusterPorts(
      developmentConfig({ TEMPORAL_DEV_PORT: '17233', CLUSTER_POSTGRES_PORT: '5544' }),
    );
    expect(withSandbox.map((entry) => entry.variable)).toEqual(
      expect.arrayContaining([
        'CLUSTER_POSTGRES_PORT',
        'TEMPORAL_DEV_PORT',
        'TEMPORAL_UI_PORT',
        'SANDBOX_PORT',
        'API_PORT',
      ]),
    );
    // PostgreSQL, the server's nine, then the UI, codec, receiver, merchant API, sandbox and checkout.
    expect(withSandbox).toHaveLength(1 + 9 + 6);
    const againstBank = clusterPorts(developmentConfig({ BANK_BASE_URL: 'https://bank.example' }));
    expect(againstBank.map((entry) => entry.variable)).not.toContain('SANDBOX_PORT');
    expect(() => clusterPorts(developmentConfig({ CLUSTER_POSTGRES_PORT: '0' }))).toThrow(
      /CLUSTER_POSTGRES_PORT: must be a fixed port/,
    );
    expect(() => developmentConfig({ CLUSTER_WORKERS: '0' })).toThrow(/CLUSTER_WORKERS/);
    const withObjectStore = clusterPorts(developmentConfig({ CLUSTER_OBJECT_STORE_PORT: '18333' }));
    expect(
      withObjectStore
        .filter((entry) => entry.variable === 'CLUSTER_OBJECT_STORE_PORT')
        .map((entry) => entry.port),
    ).toEqual([18333, 18334, 18335, 18336, 18337, 18338, 18339, 18340, 18341, 18342]);
  });

  it('sets up both databases idempotently, the password never on the command line', () => {
    const steps = schemaSteps(access);
    expect(steps.map((step) => `${step.database}: ${step.args.slice(10).join(' ')}`)).toEqual([
      'temporal: create-database',
      'temporal: setup-schema --version 0.0',
      'temporal: update-schema --schema-name postgresql/v12/temporal',
      'temporal_visibility: create-database',
      'temporal_visibility: setup-schema --version 0.0',
      'temporal_visibility: update-schema --schema-name postgresql/v12/visibility',
    ]);
    expect(steps[0]?.args.slice(0, 10)).toEqual([
      '--plugin',
      'postgres12',
      '--endpoint',
      '127.0.0.1',
      '--port',
      '55432',
      '--user',
      'temporal',
      '--database',
      'temporal',
    ]);
    expect(steps.flatMap((step) => step.args)).not.toContain('secret');
  });

  it('configures the server on PostgreSQL with SQL visibility, and the UI on its frontend and codec', () => {
    const config = serverConfig(serverPorts(17233), access, '/data/dynamic.yaml');
    expect(config.persistence.visibilityStore).toBe('postgres-visibility');
    expect(config.persistence.datastores['postgres-visibility'].sql).toMatchObject({
      pluginName: 'postgres12',
      databaseName: 'temporal_visibility',
      connectAddr: '127.0.0.1:55432',
    });
    expect(config.services.history.rpc).toMatchObject({ grpcPort: 17234, membershipPort: 16934 });
    expect(config.clusterMetadata.clusterInformation.active.rpcAddress).toBe('127.0.0.1:17233');
    expect(config.dynamicConfigClient.filepath).toBe('/data/dynamic.yaml');
    expect(dynamicConfig()).toHaveProperty(
      ['system.forceSearchAttributesCacheRefreshOnRead', 0, 'value'],
      true,
    );
    expect(
      uiConfig({
        uiPort: 18233,
        frontendPort: 17233,
        namespace: 'payments',
        codecUrl: 'http://127.0.0.1:4030',
      }),
    ).toMatchObject({
      temporalGrpcAddress: '127.0.0.1:17233',
      port: 18233,
      defaultNamespace: 'payments',
      codec: { endpoint: 'http://127.0.0.1:4030' },
    });
  });

  it('runs workers with the same CLI that runs the cluster, from dist or from source', () => {
    expect(workerCommand('/usr/bin/node', ['--import', 'tsx'], '/app/src/cli/main.ts')).toEqual({
      command: '/usr/bin/node',
      args: ['--import', 'tsx', '/app/src/cli/main.ts', 'worker'],
    });
  });

  it('refuses a namespace holding one of its search attributes with another type, as `bankflow setup` does', () => {
    const registered = { name: 'BankflowKind', type: 'Keyword', outcome: 'already registered' } as const;
    expect(() => assertNoConflicts([registered], 'payments')).not.toThrow();
    const conflict = {
      name: 'BankflowStatus',
      type: 'Keyword',
      outcome: 'conflict',
      reason: 'registered as Text, bankflow writes Keyword',
    } as const;
    expect(() => assertNoConflicts([registered, conflict], 'payments')).toThrow(
      "namespace payments has search attributes bankflow cannot use: BankflowStatus (registered as Text, bankflow writes Keyword); a namespace's attribute type cannot change, so use another namespace",
    );
  });
});
