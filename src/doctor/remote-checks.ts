import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { resolveBank } from '../bank/base-url.js';
import { BankClient } from '../bank/client.js';
import type { Config } from '../config.js';
import { listSchedules } from '../starter/schedules.js';
import { temporalAddress } from '../temporal/address.js';
import { inspectSearchAttributes } from '../temporal/search-attribute-registration.js';
import { attempt, fail, pass, type CheckResult } from './check.js';

/** How the connection to Temporal is protected, as the resolved profile says. */
function transport(config: Config): string {
  const { tls, apiKey } = config.temporal;
  if (tls && apiKey) return 'TLS with an API key';
  if (tls) return tls.clientCertPair ? 'mTLS' : 'TLS';
  return config.env === 'production' ? 'plaintext (TEMPORAL_PLAINTEXT_ALLOWED)' : `plaintext (${config.env})`;
}

/** What to check when Temporal does not answer: Temporal's own variables, or the profile they came from. */
export const temporalFix = (config: Config) =>
  `check TEMPORAL_ADDRESS, TEMPORAL_TLS* and TEMPORAL_API_KEY, or ${config.temporal.profileSource}`;

export async function temporalCheck(config: Config, client: Client): Promise<CheckResult> {
  const address = temporalAddress(config.temporal);
  return attempt('temporal', temporalFix(config), async () => {
    const info = await client.workflowService.getSystemInfo({});
    return pass(
      'temporal',
      `${address} answers (server ${info.serverVersion || 'unknown'}), ${transport(config)}, from ${config.temporal.profileSource}`,
    );
  });
}

export async function namespaceCheck(config: Config, client: Client): Promise<CheckResult> {
  const { namespace } = config.temporal;
  const address = temporalAddress(config.temporal);
  const name = 'namespace and search attributes';
  return attempt(name, 'run bankflow setup (or create the namespace)', async () => {
    const results = await inspectSearchAttributes(client.connection, namespace, address);
    const missing = results.filter((result) => result.outcome === 'missing').map((result) => result.name);
    const conflicts = results.filter((result) => result.outcome === 'conflict');
    if (conflicts.length > 0) {
      return fail(
        name,
        conflicts.map((conflict) => `${conflict.name} ${conflict.reason ?? ''}`).join(', '),
        'a search attribute cannot change type: use another namespace',
      );
    }
    if (missing.length > 0)
      return fail(name, `${namespace} lacks ${missing.join(', ')}`, 'run bankflow setup to register them');
    return pass(name, `${namespace}: all ${results.length} search attributes registered`);
  });
}

export async function schedulesCheck(config: Config, client: Client): Promise<CheckResult> {
  const name = 'schedules';
  const fix = 'start a worker with bankflow dev, or run bankflow schedules apply';
  return attempt(name, fix, async () => {
    const { taskQueue } = config.temporal;
    const schedules = await listSchedules({ client, taskQueue, schedules: config.schedules });
    const off = schedules.filter((schedule) => !schedule.exists || !schedule.upToDate);
    if (off.length > 0) {
      const standing = (exists: boolean) => (exists ? 'outdated' : 'missing');
      return fail(name, off.map((entry) => `${entry.scheduleId} ${standing(entry.exists)}`).join(', '), fix);
    }
    return pass(name, `${schedules.length} declared, all applied and up to date`);
  });
}

/** One harmless authenticated GET (the participant list) with the worker's bank settings. */
export async function bankCheck(config: Config, logger: Logger): Promise<CheckResult> {
  const bank = resolveBank(config);
  const name = 'bank';
  return attempt(name, 'check BANK_BASE_URL, BANK_CLIENT_ID and BANK_CLIENT_SECRET', async () => {
    const page = await new BankClient(bank, logger).listParticipants();
    return pass(
      name,
      `${bank.baseUrl} accepts the credentials of ${bank.clientId} (${page.data.length} participants)`,
    );
  });
}
