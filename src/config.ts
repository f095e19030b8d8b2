import { z } from 'zod';

/**
 * Every environment variable bankflow reads, in one schema. Defaults describe the embedded development stack
 * (local dev server, sandbox bank, unauthenticated webhooks are refused unless explicitly allowed).
 */
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveMs = (fallback: number) => z.coerce.number().int().positive().default(fallback);
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

/** The secret the sandbox signs webhooks with when SANDBOX_WEBHOOK_SECRET is unset; development only. */
export const developmentWebhookSecret = 'bankflow-sandbox-webhook-secret';

export const envSchema = z
  .object({
    BANKFLOW_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    BANKFLOW_DATA_DIR: z.string().min(1).default('.data'),

    TEMPORAL_ADDRESS: optionalText,
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('bankflow'),
    TEMPORAL_API_KEY: optionalText,
    TEMPORAL_TLS: flag(false),
    TEMPORAL_TLS_CERT_PATH: optionalText,
    TEMPORAL_TLS_KEY_PATH: optionalText,
    TEMPORAL_TLS_CA_PATH: optionalText,
    TEMPORAL_TLS_SERVER_NAME: optionalText,
    TEMPORAL_CLI: optionalText,
    /** Searched for a `temporal` binary when TEMPORAL_CLI is unset. */
    PATH: optionalText,
    TEMPORAL_DEV_PORT: port(7233),
    TEMPORAL_UI_PORT: port(8233),

    BANK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    BANK_CLIENT_ID: z.string().min(1).default('sandbox-client'),
    BANK_CLIENT_SECRET: z.string().min(1).default('sandbox-secret'),
    BANK_TIMEOUT_MS: positiveMs(10_000),

    SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
    SANDBOX_PORT: port(4010),
    SANDBOX_SEED: z.coerce.number().int().nonnegative().default(42),
    SANDBOX_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
    SANDBOX_WEBHOOK_SECRET: z.string().min(1).default(developmentWebhookSecret),

    WEBHOOK_HOST: z.string().min(1).default('127.0.0.1'),
    WEBHOOK_PORT: port(4020),
    WEBHOOK_SECRET: optionalText,
    WEBHOOK_SECRET_PREVIOUS: optionalText,
    WEBHOOK_AUTH_DISABLED: flag(false),
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
    if (env.BANKFLOW_ENV === 'production' && env.BANK_BASE_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['BANK_BASE_URL'],
        message: 'is required when BANKFLOW_ENV=production (the sandbox bank is for development only)',
      });
    }
    if (env.BANKFLOW_ENV === 'production' && env.WEBHOOK_AUTH_DISABLED) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_AUTH_DISABLED'],
        message: 'cannot be true when BANKFLOW_ENV=production',
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
  searchPath: string | undefined;
  devServerPort: number;
  uiPort: number;
}

export interface BankConfig {
  /** Unset means "use the embedded sandbox bank". */
  baseUrl: string | undefined;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
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
  };
  webhooks: { host: string; port: number; secrets: string[]; authDisabled: boolean };
}

function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const variable = String(issue.path[0]);
  const raw = env[variable];
  const got = raw === undefined ? '' : ` (got ${JSON.stringify(raw)})`;
  return `${issue.message}${got}`;
}

/** Parses the environment once; the only place in bankflow that reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(environment)'),
        reason: describeIssue(issue, env),
      })),
    );
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
      searchPath: e.PATH,
      devServerPort: e.TEMPORAL_DEV_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
    },
    bank: {
      baseUrl: e.BANK_BASE_URL,
      clientId: e.BANK_CLIENT_ID,
      clientSecret: e.BANK_CLIENT_SECRET,
      timeoutMs: e.BANK_TIMEOUT_MS,
    },
    sandbox: {
      host: e.SANDBOX_HOST,
      port: e.SANDBOX_PORT,
      seed: e.SANDBOX_SEED,
      webhookUrl: e.SANDBOX_WEBHOOK_URL,
      webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
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
    },
  };
}
