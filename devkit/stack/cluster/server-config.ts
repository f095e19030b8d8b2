import type { ServerPorts } from './ports.js';

export interface DatabaseAccess {
  host: string;
  port: number;
  user: string;
  password: string;
}

export const databases = { default: 'temporal', visibility: 'temporal_visibility' } as const;

function sqlStore(database: string, access: DatabaseAccess, maxConns: number) {
  return {
    sql: {
      pluginName: 'postgres12',
      databaseName: database,
      connectAddr: `${access.host}:${access.port}`,
      connectProtocol: 'tcp',
      user: access.user,
      password: access.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

function service(grpcPort: number, membershipPort: number, extra: Record<string, number> = {}) {
  return { rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra } };
}

/**
 * The server's configuration: the module's `config/development-postgres12.yaml` with bankflow's ports, its
 * private PostgreSQL, and SQL visibility (advanced visibility on PostgreSQL 12+, so custom search attributes
 * work). Written as JSON, which the server's YAML loader reads as it is.
 */
export function serverConfig(ports: ServerPorts, access: DatabaseAccess, dynamicConfigPath: string) {
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: 4,
      datastores: {
        'postgres-default': sqlStore(databases.default, access, 20),
        'postgres-visibility': sqlStore(databases.visibility, access, 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.frontend}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: dynamicConfigPath, pollInterval: '10s' },
  };
}

/**
 * Dynamic config: search attributes registered by `bankflow setup` are usable at once (as on the dev server)
 * instead of after the frontend's cache refresh.
 */
export function dynamicConfig() {
  return {
    'system.forceSearchAttributesCacheRefreshOnRead': [{ value: true, constraints: {} }],
  };
}

/** The Web UI server's configuration: the server's frontend, the codec server for decrypted payloads. */
export function uiConfig(options: {
  uiPort: number;
  frontendPort: number;
  namespace: string;
  codecUrl: string;
}) {
  return {
    temporalGrpcAddress: `127.0.0.1:${options.frontendPort}`,
    host: '127.0.0.1',
    port: options.uiPort,
    enableUi: true,
    defaultNamespace: options.namespace,
    notifyOnNewVersion: false,
    cors: { allowOrigins: [`http://localhost:${options.uiPort}`], cookieInsecure: true },
    codec: { endpoint: options.codecUrl },
  };
}
