import type { Logger } from 'pino';
import { BankClient } from '../../src/bank/client.js';
import type { BankConfig, TemporalConfig } from '../../src/config.js';
import type { DevConfig } from '../config.js';
import { createCheckout } from '../checkout/app.js';
import { checkoutPublicUrl } from '../checkout/public-url.js';
import type { RunningSandbox } from '../sandbox/app.js';
import { hostedPageUrl, widgetPath } from '../sandbox/page-urls.js';
import { connectClient } from '../../src/temporal/connection.js';

export interface RunningCheckout {
  /** On localhost: the widget it embeds runs WebAuthn for the RP id localhost. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The reference checkout page on localhost:CHECKOUT_PORT (reached at CHECKOUT_PUBLIC_URL when set), paying
 * into the sandbox's first merchant account and embedding the sandbox's widget; it starts workflows through
 * its own Temporal client, as a merchant backend would.
 */
export async function startCheckout(
  config: DevConfig,
  temporal: TemporalConfig,
  bank: BankConfig & { baseUrl: string },
  sandbox: RunningSandbox,
  logger: Logger,
): Promise<RunningCheckout> {
  const { entityIds, virtualAccountIds } = sandbox.state.world;
  const [entityId, virtualAccountId] = [entityIds[0], virtualAccountIds[0]];
  if (!entityId || !virtualAccountId) throw new Error('the sandbox has no merchant account to pay into');
  const client = await connectClient(temporal);
  const app = createCheckout({
    starter: { client, taskQueue: temporal.taskQueue },
    bank: { bank: new BankClient(bank, logger) },
    merchant: { entityId, virtualAccountId },
    widgetUrl: hostedPageUrl(sandbox.url, sandbox.webauthn.rpId, widgetPath),
    publicUrl: config.checkout.publicUrl,
    logger,
  });
  try {
    // localhost binds every loopback address the browser may resolve it to (127.0.0.1 and ::1).
    await app.listen({ host: 'localhost', port: config.checkout.port });
  } catch (error) {
    await client.connection.close();
    throw error;
  }
  return {
    url: checkoutPublicUrl(app, config.checkout.publicUrl)().href.replace(/\/$/, ''),
    async stop() {
      await app.close();
      await client.connection.close();
    },
  };
}
