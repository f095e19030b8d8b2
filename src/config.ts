import path from 'node:path';
import { z } from 'zod';
import { uuid } from './bank/schemas/common.js';
import {
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
  sandboxBankCredentials,
} from './development.js';
import { secret, secretNames, shownValue, withholdSecrets } from './config-secrets.js';
import { productionChecks } from './production-checks.js';
import { defaultWebhookMaxAgeSeconds } from './webhooks/freshness.js';
import { EncryptionKeyError, parseEncryptionKeys, type EncryptionKey } from './temporal/encryption.js';
import type { WorkflowThreadHeap } from './temporal/workflow-thread-heap.js';

export {
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
} from './development.js';

/**
 * Every environment variable bankflow reads, in one schema. Production is the default posture: only `bankflow dev`
 * (so `npm start`), `bankflow cluster` and the tests run in development, and they say so with BANKFLOW_ENV. The other defaults describe
 * the embedded development stack (local dev server, sandbox bank); production checks refuse the ones that are unsafe.
 */
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A cron expression as Temporal Schedules read it: 5 to 7 fields, or a shortcut such as `@hourly`. */
const cron = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((value) => /^@\w+/.test(value) || /^(\S+\s+){4,6}\S+$/.test(value), {
      message: 'must be a cron expression such as "0 6 * * *" (minute hour day-of-month month day-of-week)',
    });
const timeZone = z
  .string()
  .trim()
  .default('America/Sao_Paulo')
  .refine(
    (value) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone such as America/Sao_Paulo or UTC' },
  );
const optionalPort = z.coerce.number().int().min(1).max(65535).optional();
const requestsPerSecond = z.coerce
  .number()
  .positive({ message: 'must be a number of requests per second above 0 (unset it for no limit)' })
  .max(10_000, { message: 'must be at most 10000 requests per second (unset it for no limit)' })
  .optional();
/** Comma-separated uuids; empty or unset is an empty list. */
const uuidList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const ids = (value ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const bad = ids.find((id) => !uuid.safeParse(id).success);
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(bad)} is not a uuid (8-4-4-4-12 hex digits)`,
      });
      return z.NEVER;
    }
    return ids;
  });

const otlpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as http://127.0.0.1:4318' })
  .optional();
/** `key=value,key2=value2`, values percent-encoded, as the OpenTelemetry specification writes them. */
const otlpHeaders = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const headers: Record<string, string> = {};
    for (const pair of (value ?? '').split(',').filter((item) => item.trim() !== '')) {
      const at = pair.indexOf('=');
      const key = pair.slice(0, at).trim();
      if (at < 1 || key === '') {
        ctx.addIssue({ code: 'custom', message: 'must be key=value pairs separated by commas' });
        return z.NEVER;
      }
      try {
        headers[key] = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        ctx.addIssue({ code: 'custom', message: `the value of ${key} is not valid percent-encoding` });
        return z.NEVER;
      }
    }
    return headers;
  });

/** Comma-separated entries, each trimmed; empty or unset is an empty list. */
const entries = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
/** Comma-separated tokens, each trimmed. */
const tokenList = z.string().optional().transform(entries);
/** Comma-separated `user:password` pairs; user and password each trimmed, neither empty. */
const userList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const pairs = entries(value).map((entry) => {
      const colon = entry.indexOf(':');
      return colon < 0 ? ['', ''] : [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
    });
    const bad = pairs.findIndex(([user, password]) => !user || !password);
    if (bad >= 0) {
      // The entry's position, never its text: it holds a password.
      ctx.addIssue({
        code: 'custom',
        message: `entry ${bad + 1} must be user:password, neither of them empty`,
      });
      return z.NEVER;
    }
    return pairs.map(([user, password]) => `${user}:${password}`);
  });

export const envSchema = z
  .object({
    BANKFLOW_ENV: z.enum(['development', 'production']).default('production'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    BANKFLOW_DATA_DIR: z.string().min(1).default('.data'),

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
    TEMPORAL_CLI: optionalText,
    /** `id:base64key,...`, current key first; encrypts every Temporal payload (AES-256-GCM). */
    TEMPORAL_ENCRYPTION_KEYS: secret(optionalText),
    /** Searched for a `temporal` binary when TEMPORAL_CLI is unset. */
    PATH: optionalText,
    /**
     * Workflows a worker keeps in memory between their tasks; an evicted one replays its history on its next
     * task. The SDK's default, sized from the heap limit (about 2,300 here), lets a worker with many waiting
     * payments grow to gigabytes (docs/performance.md).
     */
    TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce
      .number()
      .int()
      .nonnegative()
      .max(10_000, { message: 'must be at most 10000 (about 0.3 MB each)' })
      .refine((value) => value !== 1, { message: 'must be 0 (no cache) or at least 2' })
      .default(50),
    /**
     * V8's old-generation cap of the worker's workflow thread, MB; unset, 64 MB plus 1 MB per cached workflow.
     * A cap close to what the thread holds makes V8 collect evicted workflows instead of growing the heap.
     */
    WORKFLOW_THREAD_HEAP_MB: z.coerce.number().int().min(32).max(16_384).optional(),
    /** V8's cap on each half of the workflow thread's young generation, MB (V8's own default here: 16). */
    WORKFLOW_THREAD_SEMI_SPACE_MB: z.coerce.number().int().min(1).max(64).default(2),
    /** How far a worker's heaps grow past their live size before V8 collects, percent; 0 leaves V8's own factor. */
    WORKER_HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
    TEMPORAL_DEV_PORT: port(7233),
    /**
     * Where workers serve Prometheus metrics (the Temporal SDK's own, and bankflow's bank calls; each off when its
     * port is unset), and the receiver its WEBHOOK_INTERNAL_PORT.
     */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    TEMPORAL_METRICS_PORT: optionalPort,
    WORKER_METRICS_PORT: optionalPort,
    TEMPORAL_UI_PORT: port(8233),
    /** `bankflow cluster`: its private PostgreSQL's port (the Temporal server takes TEMPORAL_DEV_PORT and around). */
    CLUSTER_POSTGRES_PORT: port(55432),
    /** `bankflow cluster`: the directory holding `initdb` and `postgres`; default Debian's newest, installed if missing. */
    CLUSTER_POSTGRES_BIN: optionalText,
    /** `bankflow cluster`: how many worker processes it runs. */
    CLUSTER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),

    BANK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    BANK_CLIENT_ID: z.string().trim().min(1).default(sandboxBankCredentials.clientId),
    BANK_CLIENT_SECRET: secret(z.string().trim().min(1).default(sandboxBankCredentials.clientSecret)),
    /** Below the 20 s a bank read's activity has (src/workflows/activity-options.ts): a longer one never fires. */
    BANK_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .max(20_000, { message: "must be at most 20000 ms (a bank read's activity times out at 20 s)" })
      .default(10_000),
    /**
     * Bank calls per second across every worker on the task queue together, enforced by Temporal's matching
     * service as the queue's activity rate (docs/decisions.md); no limit when unset.
     */
    BANK_RATE_LIMIT_PER_SECOND: requestsPerSecond,

    SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
    SANDBOX_PORT: port(4010),
    SANDBOX_SEED: z.coerce.number().int().nonnegative().default(42),
    SANDBOX_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
    SANDBOX_WEBHOOK_SECRET: secret(z.string().trim().min(1).default(developmentWebhookSecret)),
    /** The sandbox bank answers 429 with Retry-After beyond this many calls per second; no limit when unset. */
    SANDBOX_RATE_LIMIT_PER_SECOND: requestsPerSecond,
    /** The sandbox control API's token; unset, each `bankflow dev` or `bankflow sandbox` generates one. */
    SANDBOX_CONTROL_TOKEN: secret(optionalText),

    CODEC_HOST: z.string().min(1).default('127.0.0.1'),
    CODEC_PORT: port(4030),
    /** `user:password` pairs, comma-separated, for HTTP Basic on the codec server: they decode only. */
    CODEC_AUTH_USERS: secret(userList),
    /** Bearer tokens, comma-separated, for tools calling the codec server: they decode only. */
    CODEC_AUTH_TOKENS: secret(tokenList),
    /** Users who may also encode (the Temporal UI's signal dialog), so a decoding credential cannot mint payloads. */
    CODEC_ENCODE_USERS: secret(userList),
    /** Tokens that may also encode. */
    CODEC_ENCODE_TOKENS: secret(tokenList),
    /** Browser origins (the Temporal UI) allowed to call the codec server; default: the embedded UI. */
    CODEC_CORS_ORIGINS: optionalText,

    WEBHOOK_HOST: z.string().min(1).default('127.0.0.1'),
    WEBHOOK_PORT: port(4020),
    /**
     * Serves the receiver's /metrics and /readyz on METRICS_HOST at this port, and no longer on WEBHOOK_PORT (which
     * keeps /healthz for load balancers). Unset: all on WEBHOOK_PORT.
     */
    WEBHOOK_INTERNAL_PORT: optionalPort,
    WEBHOOK_SECRET: secret(optionalText),
    WEBHOOK_SECRET_PREVIOUS: secret(optionalText),
    WEBHOOK_AUTH_DISABLED: flag(false),
    /** Accept a webhook with the shared secret header and no signature; the secret then works as a bearer token. */
    WEBHOOK_ACCEPT_SECRET_HEADER: flag(false),
    /** Refuse webhooks whose envelope timestamp is older than this (replay protection); 0 turns it off. */
    WEBHOOK_MAX_AGE_SECONDS: z.coerce
      .number()
      .int()
      .min(0, { message: 'must be a number of seconds (e.g. 300)' })
      .max(86_400, {
        message:
          'must be at most 86400 (a day): each receiver remembers the events it took for that long, and past a ' +
          'restart a recorded event inside the window is taken again',
      })
      .default(defaultWebhookMaxAgeSeconds),

    /** Where report and metrics snapshot files go; default `<BANKFLOW_DATA_DIR>/reports`. */
    REPORTS_DIR: optionalText,
    METRICS_BANK_ACCOUNT_IDS: uuidList,
    /** Prefixes every schedule id, so several deployments (or test runs) share a namespace. */
    SCHEDULE_ID_PREFIX: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]*$/, 'may hold only letters, digits and . _ -')
      .default('bankflow-'),
    SCHEDULE_TIME_ZONE: timeZone,
    SCHEDULE_ATTEMPTS_SYNC_CRON: cron('*/15 * * * *'),
    SCHEDULE_METRICS_CRON: cron('0 * * * *'),
    SCHEDULE_REPORTS_CRON: cron('0 6 * * *'),

    CHECKOUT_PORT: port(4040),
    /**
     * The checkout's address as customers' browsers reach it: the only Host it answers to, where the bank sends
     * customers back, and `https` makes its session cookie Secure. Unset: http://localhost:<CHECKOUT_PORT>.
     */
    CHECKOUT_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),

    /**
     * `otlp` sends traces to the OTLP/HTTP endpoint below, `none` sends none. Unset: on when an OTLP endpoint is
     * set, off otherwise (docs/operations.md, Traces).
     */
    OTEL_TRACES_EXPORTER: z
      .enum(['otlp', 'none'], {
        message: 'must be otlp or none (bankflow exports traces over OTLP/HTTP only)',
      })
      .optional(),
    /** The collector's base URL; traces go to `<url>/v1/traces`. */
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
    /** The full traces URL, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl,
    /** `key=value` pairs, comma-separated, sent with every export (a collector's API key). */
    OTEL_EXPORTER_OTLP_HEADERS: secret(otlpHeaders),
    OTEL_SERVICE_NAME: z.string().trim().min(1).default('bankflow'),
    /**
     * Keys the hash of a customer's tax number that workflows carry as BankflowCustomerKey, so support staff find a
     * customer by CPF/CNPJ while the number itself never reaches Temporal's visibility store.
     */
    SUPPORT_LOOKUP_SECRET: secret(
      z
        .string()
        .trim()
        .min(32, 'must be at least 32 characters (generate one: openssl rand -base64 32)')
        .optional(),
    ),
    /** Where support staff open the Temporal UI; links printed by `bankflow support` point here. */
    TEMPORAL_UI_URL: z.url({ protocol: /^https?$/ }).optional(),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.TEMPORAL_TLS_CERT_PATH) !== Boolean(env.TEMPORAL_TLS_KEY_PATH)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.TEMPORAL_TLS_CERT_PATH ? 'TEMPORAL_TLS_KEY_PATH' : 'TEMPORAL_TLS_CERT_PATH'],
        message:
          'TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together (mTLS client certificate)',
      });
    }
    if (env.TEMPORAL_ENCRYPTION_KEYS !== undefined) {
      try {
        parseEncryptionKeys(env.TEMPORAL_ENCRYPTION_KEYS);
      } catch (error) {
        if (!(error instanceof EncryptionKeyError)) throw error;
        ctx.addIssue({ code: 'custom', path: ['TEMPORAL_ENCRYPTION_KEYS'], message: error.message });
      }
    }
    if (env.BANKFLOW_ENV !== 'production') return;
    for (const check of productionChecks) {
      if (!check.refuses(env)) continue;
      const which = check.which?.(env);
      ctx.addIssue({
        code: 'custom',
        path: [check.variable],
        message: which ? `${check.message} (${which})` : check.message,
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; reason: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((problem) => `  ${problem.variable}: ${problem.reason}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

export interface TemporalConfig {
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
  cliPath: string | undefined;
  /** Payload encryption keys, current first. */
  encryptionKeys: EncryptionKey[];
  searchPath: string | undefined;
  /** Workflows a worker keeps cached; 0 disables the cache. */
  maxCachedWorkflows: number;
  /** The V8 heap of the worker's workflow thread. */
  workflowThreadHeap: WorkflowThreadHeap;
  /** How far a worker's heaps grow past their live size before V8 collects, percent; 0 is V8's own factor. */
  heapGrowingPercent: number;
  devServerPort: number;
  uiPort: number;
  /** Prometheus endpoints of a worker process; each off when its port is unset. */
  metrics?: { host: string; sdkPort: number | undefined; workerPort: number | undefined };
}

export interface BankConfig {
  /** Unset means "use the embedded sandbox bank". */
  baseUrl: string | undefined;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Bank calls per second across the fleet; no limit when unset. */
  requestsPerSecond?: number;
}

/** What the scheduled jobs need on the worker: where files go and which accounts metrics snapshots read. */
export interface JobsConfig {
  reportsDir: string;
  metricsBankAccountIds: string[];
}

/** How the Temporal Schedules are declared (src/schedules/declarations.ts). */
export interface SchedulesConfig {
  idPrefix: string;
  timeZone: string;
  cron: { attemptsSync: string; metrics: string; reports: string };
}

/** Where this process sends its OpenTelemetry traces; tracing is off when Config.tracing is undefined. */
export interface TracingConfig {
  tracesUrl: string;
  headers: Record<string, string>;
  serviceName: string;
}

/** The OTLP/HTTP default receiver of a collector on this host, as the OpenTelemetry specification names it. */
const defaultOtlpEndpoint = 'http://localhost:4318';

function tracingConfig(e: Env): TracingConfig | undefined {
  const endpoint = e.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesEndpoint = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const wanted = e.OTEL_TRACES_EXPORTER ?? (endpoint || tracesEndpoint ? 'otlp' : 'none');
  if (wanted === 'none') return undefined;
  return {
    tracesUrl: tracesEndpoint ?? `${(endpoint ?? defaultOtlpEndpoint).replace(/\/+$/, '')}/v1/traces`,
    headers: e.OTEL_EXPORTER_OTLP_HEADERS,
    serviceName: e.OTEL_SERVICE_NAME,
  };
}

export interface SupportConfig {
  lookupSecret: string;
  uiUrl: string;
}

export interface Config {
  env: Env['BANKFLOW_ENV'];
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  temporal: TemporalConfig;
  bank: BankConfig;
  sandbox: {
    host: string;
    port: number;
    seed: number;
    webhookUrl: string | undefined;
    webhookSecret: string;
    rateLimitPerSecond: number | undefined;
    controlToken: string | undefined;
  };
  webhooks: {
    host: string;
    port: number;
    secrets: string[];
    authDisabled: boolean;
    acceptSecretHeader: boolean;
    /** Undefined when the freshness check is off (development only). */
    maxAgeMs: number | undefined;
    /** Where /metrics and /readyz are served apart from the public port; on the public port when undefined. */
    internal: { host: string; port: number } | undefined;
  };
  jobs: JobsConfig;
  schedules: SchedulesConfig;
  /** The reference checkout page `bankflow dev` serves on localhost. */
  checkout: { port: number; publicUrl: string | undefined };
  /** OpenTelemetry traces; off (undefined) unless the OTEL_* variables ask for them. */
  tracing: TracingConfig | undefined;
  /** `bankflow cluster`: a Temporal server on a private PostgreSQL, with its Web UI and worker processes. */
  cluster: { postgresPort: number; postgresBin: string | undefined; workers: number };
  /** What support tooling needs: the customer lookup key, and the Temporal UI its links open. */
  support: SupportConfig;
  codec: {
    host: string;
    port: number;
    /** `user:password` pairs and tokens that decode only. */
    users: string[];
    tokens: string[];
    /** Those that may also encode. */
    encodeUsers: string[];
    encodeTokens: string[];
    corsOrigins: string[];
  };
}

/** Every variable marked secret in the schema: errors show their length, never their value. */
export const secretVariables = secretNames(envSchema.shape);

function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const variable = String(issue.path[0]);
  const raw = env[variable];
  const got = raw === undefined ? '' : ` (got ${shownValue(raw, secretVariables.has(variable))})`;
  return `${issue.message}${got}`;
}

/** Said after the problems of an environment that never chose to be production, so the way out is named. */
const unsetEnvProblem = {
  variable: 'BANKFLOW_ENV',
  reason:
    'is unset, so the production checks above apply; set BANKFLOW_ENV=production and fix them, or ' +
    'BANKFLOW_ENV=development to talk to the local development stack (npm start)',
};

/** Parses the environment once; the only place in bankflow that reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const secretValues = [...secretVariables].flatMap((name) => env[name] ?? []);
    const problems = parsed.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      reason: withholdSecrets(describeIssue(issue, env), secretValues),
    }));
    throw new ConfigError(env.BANKFLOW_ENV === undefined ? [...problems, unsetEnvProblem] : problems);
  }
  const e = parsed.data;
  const tlsWanted =
    e.TEMPORAL_TLS ||
    Boolean(e.TEMPORAL_TLS_CERT_PATH) ||
    Boolean(e.TEMPORAL_TLS_CA_PATH) ||
    Boolean(e.TEMPORAL_API_KEY);
  return {
    env: e.BANKFLOW_ENV,
    logLevel: e.LOG_LEVEL,
    dataDir: e.BANKFLOW_DATA_DIR,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      apiKey: e.TEMPORAL_API_KEY,
      tls: tlsWanted
        ? {
            clientCertPath: e.TEMPORAL_TLS_CERT_PATH,
            clientKeyPath: e.TEMPORAL_TLS_KEY_PATH,
            serverRootCaPath: e.TEMPORAL_TLS_CA_PATH,
            serverName: e.TEMPORAL_TLS_SERVER_NAME,
          }
        : false,
      cliPath: e.TEMPORAL_CLI,
      encryptionKeys: parseEncryptionKeys(e.TEMPORAL_ENCRYPTION_KEYS ?? developmentEncryptionKeys),
      searchPath: e.PATH,
      maxCachedWorkflows: e.TEMPORAL_MAX_CACHED_WORKFLOWS,
      workflowThreadHeap: {
        oldSpaceMb: e.WORKFLOW_THREAD_HEAP_MB ?? 64 + e.TEMPORAL_MAX_CACHED_WORKFLOWS,
        semiSpaceMb: e.WORKFLOW_THREAD_SEMI_SPACE_MB,
      },
      heapGrowingPercent: e.WORKER_HEAP_GROWING_PERCENT,
      devServerPort: e.TEMPORAL_DEV_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      metrics: { host: e.METRICS_HOST, sdkPort: e.TEMPORAL_METRICS_PORT, workerPort: e.WORKER_METRICS_PORT },
    },
    bank: {
      baseUrl: e.BANK_BASE_URL,
      clientId: e.BANK_CLIENT_ID,
      clientSecret: e.BANK_CLIENT_SECRET,
      timeoutMs: e.BANK_TIMEOUT_MS,
      requestsPerSecond: e.BANK_RATE_LIMIT_PER_SECOND,
    },
    sandbox: {
      host: e.SANDBOX_HOST,
      port: e.SANDBOX_PORT,
      seed: e.SANDBOX_SEED,
      webhookUrl: e.SANDBOX_WEBHOOK_URL,
      webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
      rateLimitPerSecond: e.SANDBOX_RATE_LIMIT_PER_SECOND,
      controlToken: e.SANDBOX_CONTROL_TOKEN,
    },
    codec: {
      host: e.CODEC_HOST,
      port: e.CODEC_PORT,
      users: e.CODEC_AUTH_USERS,
      tokens: e.CODEC_AUTH_TOKENS,
      encodeUsers: e.CODEC_ENCODE_USERS,
      encodeTokens: e.CODEC_ENCODE_TOKENS,
      corsOrigins: e.CODEC_CORS_ORIGINS
        ? entries(e.CODEC_CORS_ORIGINS)
        : [`http://localhost:${e.TEMPORAL_UI_PORT}`, `http://127.0.0.1:${e.TEMPORAL_UI_PORT}`],
    },
    webhooks: {
      host: e.WEBHOOK_HOST,
      port: e.WEBHOOK_PORT,
      // In development the receiver trusts the sandbox's secret by default, so the local stack works as is.
      secrets: [
        e.WEBHOOK_SECRET ?? (e.BANKFLOW_ENV === 'development' ? developmentWebhookSecret : undefined),
        e.WEBHOOK_SECRET_PREVIOUS,
      ].filter((secret): secret is string => Boolean(secret)),
      authDisabled: e.WEBHOOK_AUTH_DISABLED,
      acceptSecretHeader: e.WEBHOOK_ACCEPT_SECRET_HEADER,
      maxAgeMs: e.WEBHOOK_MAX_AGE_SECONDS === 0 ? undefined : e.WEBHOOK_MAX_AGE_SECONDS * 1000,
      internal:
        e.WEBHOOK_INTERNAL_PORT === undefined
          ? undefined
          : { host: e.METRICS_HOST, port: e.WEBHOOK_INTERNAL_PORT },
    },
    jobs: {
      reportsDir: e.REPORTS_DIR ?? path.join(e.BANKFLOW_DATA_DIR, 'reports'),
      metricsBankAccountIds: e.METRICS_BANK_ACCOUNT_IDS,
    },
    schedules: {
      idPrefix: e.SCHEDULE_ID_PREFIX,
      timeZone: e.SCHEDULE_TIME_ZONE,
      cron: {
        attemptsSync: e.SCHEDULE_ATTEMPTS_SYNC_CRON,
        metrics: e.SCHEDULE_METRICS_CRON,
        reports: e.SCHEDULE_REPORTS_CRON,
      },
    },
    checkout: { port: e.CHECKOUT_PORT, publicUrl: e.CHECKOUT_PUBLIC_URL },
    tracing: tracingConfig(e),
    cluster: {
      postgresPort: e.CLUSTER_POSTGRES_PORT,
      postgresBin: e.CLUSTER_POSTGRES_BIN,
      workers: e.CLUSTER_WORKERS,
    },
    support: {
      // Production refuses to start without its own secret (src/production-checks.ts).
      lookupSecret: e.SUPPORT_LOOKUP_SECRET ?? developmentSupportLookupSecret,
      uiUrl: e.TEMPORAL_UI_URL ?? `http://localhost:${e.TEMPORAL_UI_PORT}`,
    },
  };
}

/**
 * The configuration of a command that runs only in development: `dev` (so `npm start`), which is the development
 * stack and so defaults BANKFLOW_ENV to development, and `sandbox` and `demo`, which must be told.
 */
export function loadDevelopmentConfig(
  command: 'dev' | 'cluster' | 'sandbox' | 'demo',
  env: Record<string, string | undefined> = process.env,
): Config {
  const startsStack = command === 'dev' || command === 'cluster';
  const chosen = env.BANKFLOW_ENV ?? (startsStack ? 'development' : undefined);
  if (chosen !== 'development') {
    throw new ConfigError([
      {
        variable: 'BANKFLOW_ENV',
        reason:
          `${chosen === undefined ? 'is unset (production)' : `is ${chosen}`}, and bankflow ${command} runs only ` +
          'in development (sandbox bank, public development keys); set BANKFLOW_ENV=development to use it',
      },
    ]);
  }
  return loadConfig({ ...env, BANKFLOW_ENV: chosen });
}
