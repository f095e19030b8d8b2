import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { S3StoreConfig } from '../../src/config/report-store.js';
import { s3Client } from '../../src/reports/sink/s3-sink.js';
import { SupervisedProcess } from '../stack/cluster/supervised-process.js';

/**
 * Every port `weed mini` binds: its S3 API, the master, volume server, filer and admin behind it, each with
 * gRPC.
 */
export interface ObjectStorePorts {
  s3: number;
  s3Grpc: number;
  master: number;
  masterGrpc: number;
  volume: number;
  volumeGrpc: number;
  filer: number;
  filerGrpc: number;
  /** The admin server and its maintenance worker, which `weed mini` always runs. */
  admin: number;
  adminGrpc: number;
}

/** The ports laid out from the S3 port upwards, for a fixed setup such as `bankflow cluster`. */
export function objectStorePortsFrom(s3: number): ObjectStorePorts {
  return {
    s3,
    s3Grpc: s3 + 1,
    master: s3 + 2,
    masterGrpc: s3 + 3,
    volume: s3 + 4,
    volumeGrpc: s3 + 5,
    filer: s3 + 6,
    filerGrpc: s3 + 7,
    admin: s3 + 8,
    adminGrpc: s3 + 9,
  };
}

export interface RunningObjectStore {
  /** The bucket, endpoint and credentials a worker's REPORTS_STORE=s3 needs. */
  store: S3StoreConfig;
  /** The same as environment variables, for worker processes. */
  env: Record<string, string>;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface ObjectStoreOptions {
  weed: string;
  /** Where SeaweedFS keeps its data and configuration. */
  dir: string;
  ports: ObjectStorePorts;
  bucket: string;
  logger: Logger;
  /** How long it may take to answer S3 requests. */
  readyTimeoutMs?: number;
}

/**
 * Whether this `weed mini` has a legacy admin port to turn off: later builds than PyPI's 4.48 open one by
 * default.
 */
function hasLegacyAdminPort(weed: string): boolean {
  const help = spawnSync(weed, ['mini', '-h'], { encoding: 'utf8', timeout: 15_000 });
  return `${help.stdout}${help.stderr}`.includes('-admin.port.legacy');
}

/**
 * SeaweedFS's `weed mini`: master, volume server, filer and S3 API in one process on 127.0.0.1, with one S3
 * identity whose keys are generated at each start, and the bucket created. WebDAV, the admin UI and the
 * Iceberg and Lance catalogs are off: bankflow uses none of them, and each would take another port.
 */
export async function startObjectStore(options: ObjectStoreOptions): Promise<RunningObjectStore> {
  const { ports } = options;
  mkdirSync(options.dir, { recursive: true });
  const credentials = {
    accessKeyId: `bankflow${randomBytes(6).toString('hex')}`,
    secretAccessKey: randomBytes(24).toString('base64url'),
  };
  const identities = path.join(options.dir, 's3-identities.json');
  writeFileSync(
    identities,
    JSON.stringify({
      identities: [
        {
          name: 'bankflow',
          credentials: [{ accessKey: credentials.accessKeyId, secretKey: credentials.secretAccessKey }],
          actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'],
        },
      ],
    }),
    { mode: 0o600 },
  );
  const process = new SupervisedProcess(
    {
      name: 'seaweedfs',
      command: options.weed,
      args: [
        'mini',
        `-dir=${options.dir}`,
        '-ip=127.0.0.1',
        '-ip.bind=127.0.0.1',
        `-s3.config=${identities}`,
        `-bucket=${options.bucket}`,
        `-s3.port=${ports.s3}`,
        `-s3.port.grpc=${ports.s3Grpc}`,
        `-master.port=${ports.master}`,
        `-master.port.grpc=${ports.masterGrpc}`,
        `-volume.port=${ports.volume}`,
        `-volume.port.grpc=${ports.volumeGrpc}`,
        `-filer.port=${ports.filer}`,
        `-filer.port.grpc=${ports.filerGrpc}`,
        '-s3.port.iceberg=0',
        '-s3.port.lance=0',
        '-webdav=false',
        '-admin.ui=false',
        `-admin.port=${ports.admin}`,
        `-admin.port.grpc=${ports.adminGrpc}`,
        ...(hasLegacyAdminPort(options.weed) ? ['-admin.port.legacy=0'] : []),
      ],
      graceMs: 5_000,
    },
    options.logger,
  );
  process.start();
  const store: S3StoreConfig = {
    bucket: options.bucket,
    prefix: '',
    endpoint: `http://127.0.0.1:${ports.s3}`,
    region: 'us-east-1',
    credentials,
    forcePathStyle: true,
  };
  try {
    await untilBucketAnswers(store, process, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await process.stop();
    throw error;
  }
  return {
    store,
    env: {
      REPORTS_STORE: 's3',
      REPORTS_S3_BUCKET: store.bucket,
      REPORTS_S3_ENDPOINT: store.endpoint ?? '',
      REPORTS_S3_REGION: store.region,
      REPORTS_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      REPORTS_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      REPORTS_S3_FORCE_PATH_STYLE: 'true',
    },
    get pid() {
      return process.pid;
    },
    stop: () => process.stop(),
  };
}

async function untilBucketAnswers(
  store: S3StoreConfig,
  process: SupervisedProcess,
  timeoutMs: number,
): Promise<void> {
  const client = s3Client(store);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  try {
    while (Date.now() < deadline) {
      if (!process.running) {
        throw new Error(`weed mini exited while starting:\n${process.recentOutput}`);
      }
      try {
        await client.send(new HeadBucketCommand({ Bucket: store.bucket }));
        return;
      } catch (error) {
        lastError = error;
        await sleep(250);
      }
    }
  } finally {
    client.destroy();
  }
  throw new Error(
    `weed mini's S3 API at ${store.endpoint} did not answer for bucket ${store.bucket} within ${timeoutMs} ms ` +
      `(${lastError instanceof Error ? lastError.message : String(lastError)}):\n${process.recentOutput}`,
  );
}
