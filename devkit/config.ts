import { z } from 'zod';
import { secret, secretNames } from '../src/config-secrets.js';
import { ConfigError, loadConfig, parseEnvironment, type Config } from '../src/config.js';
import {
  httpUrl,
  optionalPort,
  optionalText,
  port,
  requestsPerSecond,
  type Parsed,
} from '../src/config/fields.js';
import { developmentWebhookSecret } from '../src/development.js';

/**
 * The development kit's own settings, read only by its commands (`dev`, `cluster`, `sandbox`, `demo`) on top
 * of the product's (src/config.ts); docs/configuration.md lists them in a section of their own.
 */
const sandboxVariables = {
  SANDBOX_SEED: z.coerce.number().int().nonnegative().default(42),
  SANDBOX_WEBHOOK_URL: httpUrl.optional(),
  SANDBOX_WEBHOOK_SECRET: secret(z.string().trim().min(1).default(developmentWebhookSecret)),
  /** The sandbox bank answers 429 with Retry-After beyond this many calls per second; no limit when unset. */
  SANDBOX_RATE_LIMIT_PER_SECOND: requestsPerSecond,
  /** The sandbox control API's token; unset, each `bankflow dev` or `bankflow sandbox` generates one. */
  SANDBOX_CONTROL_TOKEN: secret(optionalText),
};

const stackVariables = {
  TEMPORAL_DEV_PORT: port(7233),
  /**
   * `bankflow cluster`: its private PostgreSQL's port (the Temporal server takes TEMPORAL_DEV_PORT and
   * around).
   */
  CLUSTER_POSTGRES_PORT: port(55432),
  /**
   * `bankflow cluster`: the directory holding `initdb` and `postgres`; default Debian's newest, installed if
   * missing.
   */
  CLUSTER_POSTGRES_BIN: optionalText,
  /** `bankflow cluster`: how many worker processes it runs. */
  CLUSTER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * `bankflow cluster`: run SeaweedFS's S3 API on this port (its other services take the 9 ports above it)
   * and have the workers keep reports in its bucket instead of REPORTS_DIR; unset for no object store.
   */
  CLUSTER_OBJECT_STORE_PORT: optionalPort,
};

const checkoutVariables = {
  CHECKOUT_PORT: port(4040),
  /**
   * The checkout's address as customers' browsers reach it: the only Host it answers to, where the bank sends
   * customers back, and `https` makes its session cookie Secure. Unset: http://localhost:<CHECKOUT_PORT>.
   */
  CHECKOUT_PUBLIC_URL: httpUrl.optional(),
};

/** The development kit's settings by section, in the order docs/configuration.md lists them. */
export const devkitSections = [
  { title: 'Sandbox bank', variables: sandboxVariables },
  { title: 'Dev stack and cluster', variables: stackVariables },
  { title: 'Checkout page', variables: checkoutVariables },
] as const;

const devkitVariables = { ...sandboxVariables, ...stackVariables, ...checkoutVariables };

export const devkitEnvSchema = z.object(devkitVariables);
export type DevkitEnv = Parsed<typeof devkitVariables>;

/** Every development kit variable marked secret: errors show their length, never their value. */
export const devkitSecretVariables = secretNames(devkitEnvSchema.shape);

/** The product's configuration with the development kit's on top. */
export interface DevConfig extends Config {
  sandbox: Config['sandbox'] & {
    seed: number;
    webhookUrl: string | undefined;
    webhookSecret: string;
    rateLimitPerSecond: number | undefined;
    controlToken: string | undefined;
  };
  /**
   * The port of the embedded Temporal dev server, and of the cluster's Temporal server (and those around it).
   */
  devServerPort: number;
  /** The reference checkout page `bankflow dev` serves on localhost. */
  checkout: { port: number; publicUrl: string | undefined };
  /** `bankflow cluster`: a Temporal server on a private PostgreSQL, with its Web UI and worker processes. */
  cluster: {
    postgresPort: number;
    postgresBin: string | undefined;
    workers: number;
    /** The S3 port of the object store the workers keep reports in; none when undefined. */
    objectStorePort: number | undefined;
  };
}

/** The development kit's configuration over the product's. */
function devConfig(config: Config, e: DevkitEnv): DevConfig {
  return {
    ...config,
    sandbox: {
      ...config.sandbox,
      seed: e.SANDBOX_SEED,
      webhookUrl: e.SANDBOX_WEBHOOK_URL,
      webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
      rateLimitPerSecond: e.SANDBOX_RATE_LIMIT_PER_SECOND,
      controlToken: e.SANDBOX_CONTROL_TOKEN,
    },
    devServerPort: e.TEMPORAL_DEV_PORT,
    checkout: { port: e.CHECKOUT_PORT, publicUrl: e.CHECKOUT_PUBLIC_URL },
    cluster: {
      postgresPort: e.CLUSTER_POSTGRES_PORT,
      postgresBin: e.CLUSTER_POSTGRES_BIN,
      workers: e.CLUSTER_WORKERS,
      objectStorePort: e.CLUSTER_OBJECT_STORE_PORT,
    },
  };
}

/**
 * The configuration of a command that runs only in development: `dev` (so `npm start`), which is the
 * development stack and so defaults BANKFLOW_ENV to development, and `sandbox` and `demo`, which must be
 * told.
 */
export function loadDevelopmentConfig(
  command: 'dev' | 'cluster' | 'sandbox' | 'demo',
  env: Record<string, string | undefined> = process.env,
): DevConfig {
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
  const developmentEnv = { ...env, BANKFLOW_ENV: chosen };
  // Both parsed before either is refused, so one run names every bad variable.
  const problems: ConfigError['problems'] = [];
  const read = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const product = read(() => loadConfig(developmentEnv));
  const devkit = read(() => parseEnvironment(devkitEnvSchema, devkitSecretVariables, developmentEnv));
  if (!product || !devkit) throw new ConfigError(problems);
  return devConfig(product, devkit);
}
