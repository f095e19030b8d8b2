import type { Config } from '../config.js';
import { attempt, pass, type CheckResult } from './check.js';

/** How long an endpoint has to answer doctor's request. */
const answerTimeoutMs = 5_000;

/**
 * Each merchant endpoint answers HTTP (any status: doctor sends no event, so a 404 or 405 to its HEAD still
 * shows the worker reaches it), and notifications have a secret to be signed with. No secret is printed.
 */
export async function notificationChecks(config: Config): Promise<CheckResult[]> {
  const { endpoints, secrets } = config.notifications;
  if (endpoints.length === 0)
    return [pass('merchant notifications', 'NOTIFY_ENDPOINTS is unset: no notification is sent')];
  // The configuration refuses endpoints without a secret, so there is one to sign with.
  const signing = pass(
    'notification secret',
    `signed with ${secrets.length === 1 ? 'NOTIFY_SECRET' : 'NOTIFY_SECRET and NOTIFY_SECRET_PREVIOUS'}`,
  );
  const reachable = endpoints.map((endpoint, index) => {
    const name = `notification endpoint ${index + 1}`;
    return attempt(
      name,
      `check that ${endpoint} is up and reachable from this host (NOTIFY_ENDPOINTS entry ${index + 1})`,
      async () => {
        const response = await fetch(endpoint, {
          method: 'HEAD',
          redirect: 'manual',
          signal: AbortSignal.timeout(answerTimeoutMs),
        });
        return pass(name, `${endpoint} answers (HTTP ${response.status} to a HEAD)`);
      },
    );
  });
  return [signing, ...(await Promise.all(reachable))];
}
