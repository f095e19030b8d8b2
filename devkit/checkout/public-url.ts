import type { FastifyInstance } from 'fastify';

/**
 * Where customers reach the checkout: CHECKOUT_PUBLIC_URL when set, else `http://localhost:<the port it
 * listens on>` (the development default, known once it listens).
 */
export function checkoutPublicUrl(app: FastifyInstance, configured: string | undefined): () => URL {
  if (configured !== undefined) {
    const url = new URL(configured);
    return () => url;
  }
  return () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new URL(`http://localhost:${port}/`);
  };
}

/** The Host header's host and port, as the public URL's scheme spells them (a default port dropped). */
function hostOf(header: string | undefined, protocol: string): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`${protocol}//${header}`).host;
  } catch {
    return undefined;
  }
}

/**
 * Answers only requests for the public URL's host: a page served under another name (a DNS name rebound to
 * this server, or a proxy passing any Host through) is refused before any route runs, 421 as for a request
 * that reached the wrong server.
 */
export function guardCheckoutHost(app: FastifyInstance, publicUrl: () => URL): void {
  app.addHook('onRequest', async (request, reply) => {
    const expected = publicUrl();
    if (hostOf(request.headers.host, expected.protocol) === expected.host) return;
    return reply.code(421).send({
      error:
        `this checkout answers only to ${expected.host} (CHECKOUT_PUBLIC_URL), not Host ` +
        `${JSON.stringify(request.headers.host ?? '')}; open ${expected.origin}, or set CHECKOUT_PUBLIC_URL to ` +
        'the address customers use',
    });
  });
}
