import type { ServerOptions } from 'node:http';

/** How long one of bankflow's HTTP servers waits for a client, in milliseconds. */
export interface ServerTimeouts {
  /** The whole request, headers and body: a client past it gets 408 and the connection is closed. */
  requestMs: number;
  /** The request's headers alone. */
  headersMs: number;
  /**
   * An idle keep-alive connection between requests. Longer than the idle pooling of the clients bankflow
   * points at its own servers (got's agent for the sandbox keeps sockets; Fastify's own default is 72 s), so
   * a client never sends on a socket the server is closing at that moment (ECONNRESET).
   */
  keepAliveMs: number;
}

/**
 * A client trickling its headers or body a byte at a time would otherwise hold a connection, and the memory
 * of a half-read body, for as long as it keeps trickling (Fastify sets no request timeout), outside every
 * limit on requests in flight. Every legitimate caller sends a request in well under these: the bank's
 * webhooks (256 KiB at most), the Temporal UI's payloads to decode (4 MiB at most), the checkout page's small
 * JSON.
 */
export const defaultServerTimeouts: ServerTimeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 72_000,
};

/**
 * Node checks the request and headers timeouts of open connections on an interval (30 s by default), which
 * would let a slow client stay up to that much longer than its timeout; a second at most keeps the cut close
 * to it.
 */
const checkingIntervalMs = (timeouts: ServerTimeouts) =>
  Math.max(10, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));

/** The timeouts with overrides (short ones for tests), checked to be ones Node accepts. */
export function serverTimeouts(overrides: Partial<ServerTimeouts> = {}): ServerTimeouts {
  const timeouts = { ...defaultServerTimeouts, ...overrides };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new RangeError(
        `server timeout ${name} must be a whole number of milliseconds above 0 (got ${value})`,
      );
    }
  }
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new RangeError(
      `server timeout headersMs (${timeouts.headersMs}) must not exceed requestMs (${timeouts.requestMs})`,
    );
  }
  return timeouts;
}

/** The options of a `node:http` server (createServer) that holds these timeouts. */
export function nodeServerOptions(overrides: Partial<ServerTimeouts> = {}): ServerOptions {
  const timeouts = serverTimeouts(overrides);
  return {
    requestTimeout: timeouts.requestMs,
    headersTimeout: timeouts.headersMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: checkingIntervalMs(timeouts),
  };
}

/**
 * The options of a Fastify server that holds these timeouts. Fastify sets the request and keep-alive timeouts
 * on its server itself (its `http` options would be overwritten), and passes the rest to Node's createServer.
 */
export function fastifyServerOptions(overrides: Partial<ServerTimeouts> = {}) {
  const { requestTimeout, keepAliveTimeout, ...http } = nodeServerOptions(overrides);
  return { requestTimeout, keepAliveTimeout, http };
}
