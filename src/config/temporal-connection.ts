import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { flag, optionalText, type Parsed } from './fields.js';

/** How bankflow reaches Temporal: the address, the namespace and the task queue, and how the connection is protected. */
export const temporalConnectionVariables = {
  TEMPORAL_ADDRESS: optionalText,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('bankflow'),
  TEMPORAL_API_KEY: secret(optionalText),
  TEMPORAL_TLS: flag(false),
  TEMPORAL_TLS_CERT_PATH: optionalText,
  TEMPORAL_TLS_KEY_PATH: optionalText,
  TEMPORAL_TLS_CA_PATH: optionalText,
  TEMPORAL_TLS_SERVER_NAME: optionalText,
  /** Production refuses plaintext Temporal unless this says a sidecar or mesh encrypts the connection. */
  TEMPORAL_PLAINTEXT_ALLOWED: flag(false),
};

export type TemporalConnectionEnv = Parsed<typeof temporalConnectionVariables>;

export interface TemporalConnectionConfig {
  /** Unset means "start an embedded dev server" for `bankflow dev`, and localhost:7233 elsewhere. */
  address: string | undefined;
  namespace: string;
  taskQueue: string;
  apiKey: string | undefined;
  tls:
    | false
    | {
        clientCertPath: string | undefined;
        clientKeyPath: string | undefined;
        serverRootCaPath: string | undefined;
        serverName: string | undefined;
      };
}

/** TLS is on when asked for, or implied by a certificate, a CA or an API key (Temporal Cloud). */
const usesTls = (env: TemporalConnectionEnv) =>
  env.TEMPORAL_TLS ||
  Boolean(env.TEMPORAL_TLS_CERT_PATH) ||
  Boolean(env.TEMPORAL_TLS_CA_PATH) ||
  Boolean(env.TEMPORAL_API_KEY);

/**
 * The one rule of what counts as a protected connection to Temporal: TLS, or plaintext that the operator says a
 * sidecar or service mesh encrypts. Production refuses any other (src/production-checks.ts).
 */
export const temporalConnectionProtected = (env: TemporalConnectionEnv) =>
  usesTls(env) || env.TEMPORAL_PLAINTEXT_ALLOWED;

/** The problems no single variable shows: a client certificate needs its key, and the key its certificate. */
export function temporalConnectionProblems(
  env: TemporalConnectionEnv,
): { variable: string; message: string }[] {
  if (Boolean(env.TEMPORAL_TLS_CERT_PATH) === Boolean(env.TEMPORAL_TLS_KEY_PATH)) return [];
  return [
    {
      variable: env.TEMPORAL_TLS_CERT_PATH ? 'TEMPORAL_TLS_KEY_PATH' : 'TEMPORAL_TLS_CERT_PATH',
      message:
        'TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together (mTLS client certificate)',
    },
  ];
}

export function temporalConnectionConfig(env: TemporalConnectionEnv): TemporalConnectionConfig {
  return {
    address: env.TEMPORAL_ADDRESS,
    namespace: env.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    apiKey: env.TEMPORAL_API_KEY,
    tls: usesTls(env)
      ? {
          clientCertPath: env.TEMPORAL_TLS_CERT_PATH,
          clientKeyPath: env.TEMPORAL_TLS_KEY_PATH,
          serverRootCaPath: env.TEMPORAL_TLS_CA_PATH,
          serverName: env.TEMPORAL_TLS_SERVER_NAME,
        }
      : false,
  };
}
