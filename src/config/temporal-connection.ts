import { z } from 'zod';
import { flag, type Parsed } from './fields.js';
import type { TemporalProfile } from './temporal-profile.js';

/**
 * bankflow's own part of the connection to Temporal. Where Temporal is and how the connection is protected is
 * Temporal's: the TEMPORAL_* variables and `temporal.toml` profiles its CLI reads
 * (src/config/temporal-profile.ts).
 */
export const temporalConnectionVariables = {
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('bankflow'),
  /** Production refuses plaintext Temporal unless this says a sidecar or mesh encrypts the connection. */
  TEMPORAL_PLAINTEXT_ALLOWED: flag(false),
};

export type TemporalConnectionEnv = Parsed<typeof temporalConnectionVariables>;

export type TemporalConnectionConfig = Omit<TemporalProfile, 'source'> & {
  /** Where the profile came from, for reports: `profile "prod" of /etc/bankflow/temporal.toml`. */
  profileSource: string;
  taskQueue: string;
};

/**
 * The one rule of what counts as a protected connection to Temporal: TLS on in the resolved profile (asked
 * for, implied by a certificate or CA, or by an API key, as envconfig decides), or plaintext that the
 * operator says a sidecar or service mesh encrypts. Production refuses any other (src/production-checks.ts).
 */
export const temporalConnectionProtected = (env: TemporalConnectionEnv, profile: TemporalProfile) =>
  profile.tls !== false || env.TEMPORAL_PLAINTEXT_ALLOWED;

export function temporalConnectionConfig(
  env: TemporalConnectionEnv,
  profile: TemporalProfile,
): TemporalConnectionConfig {
  const { source, ...connection } = profile;
  return { ...connection, profileSource: source, taskQueue: env.TEMPORAL_TASK_QUEUE };
}
