import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { TemporalConfig } from '../config.js';
import { tracingClientInterceptors } from '../tracing/temporal.js';
import { temporalAddress } from './address.js';
import { bankflowDataConverter } from './data-converter.js';

/** The resolved Temporal profile (src/config/temporal-profile.ts) as the SDK's connection options. */
function connectionOptions(config: TemporalConfig) {
  return {
    address: temporalAddress(config),
    // False stays false: the SDK would turn TLS on for an API key when left undefined.
    tls: config.tls,
    apiKey: config.apiKey,
    metadata: config.metadata,
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
