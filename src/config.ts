import { z } from 'zod';
import { secretNames, shownValue, withholdSecrets } from './config-secrets.js';
import { apiConfig, type ApiConfig } from './config/api.js';
import { bankBudgetProblems, bankConfig, sandboxAddress, type BankConfig } from './config/bank.js';
import { codecConfig, type CodecConfig } from './config/codec.js';
import { jobsConfig, schedulesConfig, type JobsConfig, type SchedulesConfig } from './config/jobs.js';
import { reportStoreProblems } from './config/report-store.js';
import { reusedSecretProblems } from './config/secret-reuse.js';
import { productVariables, type Env } from './config/sections.js';
import { supportConfig, type SupportConfig } from './config/support.js';
import { temporalConnectionConfig, type TemporalConnectionConfig } from './config/temporal-connection.js';
import {
  readTemporalProfile,
  temporalProfileVariables,
  type ProfileProblem,
  type TemporalProfile,
} from './config/temporal-profile.js';
import {
  encryptionKeyProblems,
  temporalToolsConfig,
  type TemporalToolsConfig,
} from './config/temporal-tools.js';
import { tracingConfig, type TracingConfig } from './config/tracing.js';
import {
  notificationProblems,
  notificationsConfig,
  type NotificationsConfig,
} from './config/notifications.js';
import { webhooksConfig, type WebhooksConfig } from './config/webhooks.js';
import { workerConfig, type WorkerConfig } from './config/worker.js';
import { productionChecks } from './production-checks.js';

export type { ApiConfig } from './config/api.js';
export type { BankConfig } from './config/bank.js';
export type { JobsConfig, SchedulesConfig } from './config/jobs.js';
export type { Env } from './config/sections.js';
export type { SupportConfig } from './config/support.js';
export type { TracingConfig } from './config/tracing.js';
export {
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
} from './development.js';

/**
 * Every environment variable of bankflow's own, in one schema assembled from its sections (src/config/). The
 * defaults describe the development stack (local dev server, sandbox bank); production checks refuse the ones
 * that are unsafe. The connection to Temporal is Temporal's own configuration
 * (src/config/temporal-profile.ts); the development kit's variables are in devkit/config.ts.
 */
export const envSchema = z.object(productVariables);

/** The schema with what no single variable shows, and what production refuses, given the Temporal profile. */
function checkedSchema(temporal: TemporalProfile | undefined) {
  return envSchema.superRefine((env, ctx) => {
    const refuse = (problem: ProfileProblem) =>
      ctx.addIssue({ code: 'custom', path: [problem.variable], message: problem.message });
    encryptionKeyProblems(env).forEach(refuse);
    reportStoreProblems(env).forEach(refuse);
    bankBudgetProblems(env).forEach(refuse);
    notificationProblems(env).forEach(refuse);
    // A profile that did not resolve is reported on its own; production's checks need one.
    if (env.BANKFLOW_ENV !== 'production' || !temporal) return;
    for (const check of productionChecks) {
      if (!check.refuses(env, temporal)) continue;
      const which = check.which?.(env, temporal);
      refuse({ variable: check.variable, message: which ? `${check.message} (${which})` : check.message });
    }
    reusedSecretProblems(env, temporal).forEach(refuse);
  });
}

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; reason: string }[]) {
    super(
      `Invalid configuration:\n${problems.map((problem) => `  ${problem.variable}: ${problem.reason}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

export type TemporalConfig = TemporalConnectionConfig & TemporalToolsConfig & WorkerConfig;

export interface Config {
  env: Env['BANKFLOW_ENV'];
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  temporal: TemporalConfig;
  bank: BankConfig;
  /** Where the sandbox bank answers in development: BANK_BASE_URL's default (src/bank/base-url.ts). */
  sandbox: { host: string; port: number };
  webhooks: WebhooksConfig;
  jobs: JobsConfig;
  /** The merchant's notification endpoints and signing secrets. */
  notifications: NotificationsConfig;
  schedules: SchedulesConfig;
  /** OpenTelemetry traces; off (undefined) unless the OTEL_* variables ask for them. */
  tracing: TracingConfig | undefined;
  /** What support tooling needs: the customer lookup key, and the Temporal UI its links open. */
  support: SupportConfig;
  codec: CodecConfig;
  /** The merchant HTTP API (`bankflow api`). */
  api: ApiConfig;
}

/**
 * Every variable marked secret in the schema, and Temporal's secret ones: errors show their length, never
 * their value. TEMPORAL_GRPC_META_ stands for each TEMPORAL_GRPC_META_<HEADER>.
 */
export const secretVariables: ReadonlySet<string> = new Set([
  ...secretNames(envSchema.shape),
  ...Object.entries(temporalProfileVariables).flatMap(([name, variable]) => (variable.secret ? [name] : [])),
]);

/** The secret variables `env` sets, each gRPC header of TEMPORAL_GRPC_META_* by its own name. */
const secretsOf = (env: Record<string, string | undefined>): ReadonlySet<string> =>
  new Set([...secretVariables, ...Object.keys(env).filter((name) => name.startsWith('TEMPORAL_GRPC_META_'))]);

/**
 * Said first, before the problems of an environment that never chose to be production: the way out, not a
 * list of production's variables, is what someone trying bankflow locally needs to read.
 */
const unsetEnvProblem = {
  variable: 'BANKFLOW_ENV',
  reason:
    "is unset, so the production checks below apply: to try bankflow locally (npm start's stack), set " +
    'BANKFLOW_ENV=development; for production, set BANKFLOW_ENV=production and fix them',
};

/**
 * Parses the environment with `schema`, or throws a ConfigError naming each variable and the reason, with the
 * problems found apart (`also`); the value of a variable in `secrets` is never shown. The product's
 * configuration and the development kit's both read it so.
 */
export function parseEnvironment<Schema extends z.ZodType>(
  schema: Schema,
  secrets: ReadonlySet<string>,
  env: Record<string, string | undefined>,
  also: ProfileProblem[] = [],
): z.infer<Schema> {
  const parsed = schema.safeParse(env);
  if (parsed.success && also.length === 0) return parsed.data;
  const secretValues = [...secrets].flatMap((name) => env[name] ?? []);
  const issues = [
    ...(parsed.success ? [] : parsed.error.issues),
    ...also.map((problem) => ({ path: [problem.variable], message: problem.message })),
  ];
  const problems = issues.map((issue) => {
    const variable = String(issue.path[0] ?? '(environment)');
    const raw = env[variable];
    const got = raw === undefined ? '' : ` (got ${shownValue(raw, secrets.has(variable))})`;
    return { variable, reason: withholdSecrets(`${issue.message}${got}`, secretValues) };
  });
  throw new ConfigError(env.BANKFLOW_ENV === undefined ? [unsetEnvProblem, ...problems] : problems);
}

/** Parses the environment once; with devkit/config.ts, the only place in bankflow that reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const temporal = readTemporalProfile(env);
  const profile = 'profile' in temporal ? temporal.profile : undefined;
  const e = parseEnvironment(checkedSchema(profile), secretsOf(env), env, temporal.problems);
  // parseEnvironment already refused a profile that did not resolve, its problems with the others.
  if (!profile)
    throw new ConfigError(
      temporal.problems.map((problem) => ({ variable: problem.variable, reason: problem.message })),
    );
  return {
    env: e.BANKFLOW_ENV,
    logLevel: e.LOG_LEVEL,
    dataDir: e.BANKFLOW_DATA_DIR,
    temporal: { ...temporalConnectionConfig(e, profile), ...temporalToolsConfig(e), ...workerConfig(e) },
    bank: bankConfig(e),
    sandbox: sandboxAddress(e),
    codec: codecConfig(e),
    api: apiConfig(e),
    webhooks: webhooksConfig(e),
    jobs: jobsConfig(e),
    notifications: notificationsConfig(e),
    schedules: schedulesConfig(e),
    tracing: tracingConfig(e),
    support: supportConfig(e),
  };
}
