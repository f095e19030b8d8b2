import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubBank {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A bare HTTP server on the loopback that plays the bank for the cases the sandbox cannot produce.
 *
 * It keeps idle connections for 120 s instead of Node's 5 s. The stub and the BankClient share one event
 * loop, so when a test holds that loop (fast-check generating cases on a loaded machine) for longer than the
 * server's keep-alive timeout, both idle timers come due together, the server closes the pooled socket, and
 * the client's next request on it fails with ECONNRESET instead of the answer the test set up. Reproduced by
 * blocking the loop for 6 s between two requests to a default server: the second one fails with ECONNRESET;
 * 4.5 s does not.
 */
export async function startStubBank(handler: RequestListener): Promise<StubBank> {
  const server = createServer(handler);
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
