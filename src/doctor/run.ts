import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { connectClient } from '../temporal/connection.js';
import { temporalAddress } from '../temporal/address.js';
import { notificationChecks } from './notification-checks.js';
import { fail, pass, type CheckResult, type DoctorRole } from './check.js';
import { deploymentChecks } from './deployment-checks.js';
import { apiKeysCheck, codecAuthCheck, encryptionKeysCheck, webhookSecretCheck } from './local-checks.js';
import { bankCheck, namespaceCheck, schedulesCheck, temporalCheck, temporalFix } from './remote-checks.js';

export interface DoctorReport {
  ok: boolean;
  env: string;
  role: DoctorRole;
  checks: CheckResult[];
}

const uses = (role: DoctorRole, ...roles: DoctorRole[]) => role === 'all' || roles.includes(role);

async function temporalChecks(config: Config, role: DoctorRole): Promise<CheckResult[]> {
  let client: Client;
  try {
    client = await connectClient(config.temporal);
  } catch (error) {
    const address = temporalAddress(config.temporal);
    return [fail('temporal', `cannot reach ${address}: ${(error as Error).message}`, temporalFix(config))];
  }
  try {
    const checks = [await temporalCheck(config, client), await namespaceCheck(config, client)];
    if (uses(role, 'worker')) {
      checks.push(await schedulesCheck(config, client), ...(await deploymentChecks(config, client)));
    }
    return checks;
  } finally {
    await client.connection.close();
  }
}

/**
 * `bankflow doctor`: loads the configuration as the processes of `role` do, then checks what they depend on,
 * in order: Temporal, its namespace, schedules and worker deployment, the bank, the merchant's notification
 * endpoints, the webhook secret, the payload keys, the codec server, the merchant API's keys.
 */
export async function runDoctor(
  env: Record<string, string | undefined>,
  role: DoctorRole,
  logger: Logger,
): Promise<DoctorReport> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Each reason already says what to set.
    const checks = error.problems.map((problem): CheckResult => ({
      name: 'configuration',
      ok: false,
      detail: `${problem.variable}: ${problem.reason}`,
    }));
    return { ok: false, env: env.BANKFLOW_ENV ?? 'production (unset)', role, checks };
  }
  const checks = [pass('configuration', `BANKFLOW_ENV=${config.env}, every variable valid`)];
  if (uses(role, 'worker', 'receiver', 'starter', 'api'))
    checks.push(...(await temporalChecks(config, role)));
  if (uses(role, 'worker', 'starter', 'api')) checks.push(await bankCheck(config, logger));
  if (uses(role, 'worker')) checks.push(...(await notificationChecks(config)));
  if (uses(role, 'receiver')) checks.push(webhookSecretCheck(config));
  checks.push(await encryptionKeysCheck(config));
  if (uses(role, 'codec')) checks.push(codecAuthCheck(config));
  if (uses(role, 'api')) checks.push(apiKeysCheck(config));
  return { ok: checks.every((check) => check.ok), env: config.env, role, checks };
}
