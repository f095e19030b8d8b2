import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Who is buying: known to the backend from the session, never taken from the browser. */
export interface Customer {
  taxNumber: string;
  name: string;
}

/**
 * What the backend knows about one browser: its customer, its device at the bank, the payments it started.
 */
export interface CheckoutSession {
  customer: Customer;
  deviceId: string | undefined;
  externalIds: Set<string>;
}

/** The demo shop's signed-in customer; a real backend takes this from its own login. */
export const demoCustomer: Customer = { taxNumber: '12345678909', name: 'Maria Silva' };

export const sessionCookie = 'checkout_session';

/** A session refused: none, or a request about something the session does not own. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly statusCode: 401 | 403,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * In-memory cookie sessions for the reference checkout: the page's first load opens one for the demo customer
 * (an HttpOnly, SameSite=Lax cookie, so it survives the return from the bank's pages), every API call needs
 * it. `secure` (the checkout is served over https) adds `Secure`, so the browser never sends it over plain
 * http.
 */
export function createSessions(options: { secure: boolean }) {
  const attributes = `Path=/; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`;
  const sessions = new Map<string, CheckoutSession>();
  return {
    /** The page's session, opened on its first load. */
    open(request: FastifyRequest, reply: FastifyReply): CheckoutSession {
      const known = sessions.get(cookieValue(request.headers.cookie, sessionCookie) ?? '');
      if (known) return known;
      const id = randomBytes(24).toString('base64url');
      const session: CheckoutSession = {
        customer: demoCustomer,
        deviceId: undefined,
        externalIds: new Set(),
      };
      sessions.set(id, session);
      reply.header('set-cookie', `${sessionCookie}=${id}; ${attributes}`);
      return session;
    },
    /** The session of an API call; a call without one is refused. */
    of(request: FastifyRequest): CheckoutSession {
      const session = sessions.get(cookieValue(request.headers.cookie, sessionCookie) ?? '');
      if (!session) throw new SessionError('no checkout session: load the checkout page first', 401);
      return session;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** The device this session created at the bank; the browser cannot name another customer's. */
export function sessionDevice(session: CheckoutSession): string {
  if (!session.deviceId) throw new SessionError('no device yet: the page registers this browser first', 403);
  return session.deviceId;
}

/** Refuses a payment this session did not start. */
export function ownPayment(session: CheckoutSession, externalId: string): string {
  if (!session.externalIds.has(externalId)) {
    throw new SessionError(`payment ${externalId} was not started by this checkout session`, 403);
  }
  return externalId;
}
