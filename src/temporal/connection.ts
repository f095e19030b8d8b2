import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow/index.js';
import type { TemporalConfig } from '../config.js';
import { tracingClientInterceptors } from '../tracing/temporal.js';
import { bankflowDataConverter } from './data-converter.js';

export const defaultTemporalAddress = 'localhost:7233';

function readPem(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** TLS for a self-hosted cluster (mTLS client certificate) or Temporal Cloud (API key over TLS). */
export function tlsOptions(config: TemporalConfig): TLSConfig | undefined {
  if (!config.tls) return undefined;
  const { clientCertPath, clientKeyPath, serverRootCaPath, serverName } = config.tls;
  return {
    serverNameOverride: serverName,
    serverRootCACertificate: serverRootCaPath ? readPem(serverRootCaPath, 'TEMPORAL_TLS_CA_PATH') : undefined,
    clientCertPair:
      clientCertPath && clientKeyPath
        ? {
            crt: readPem(clientCertPath, 'TEMPORAL_TLS_CERT_PATH'),
            key: readPem(clientKeyPath, 'TEMPORAL_TLS_KEY_PATH'),
          }
        : undefined,
  };
}

function connectionOptions(config: TemporalConfig) {
  return {
    address: config.address ?? defaultTemporalAddress,
    tls: tlsOptions(config),
    apiKey: config.apiKey,
  };
}

export async function connectClient(config: TemporalConfig): Promise<Client> {
  const connection = await Connection.connect(connectionOptions(config));
  return new Client({
    connection,
    namespace: config.namespace,
    dataConverter: bankflowDataConverter(config.encryptionKeys),
    interceptors: tracingClientInterceptors(),
  });
}

export function connectWorkerConnection(config: TemporalConfig): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config));
}
