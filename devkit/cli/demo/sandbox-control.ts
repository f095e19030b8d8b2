import { z } from 'zod';
import { uuid } from '../../../src/bank/schemas/common.js';
import { idListingSchema, type IdListing } from '../../sandbox/id-listing.js';

/** The control API's first call from a command; a 404 there means the bank has no control API at all. */
const probePaths = new Set(['/sandbox/world', '/sandbox/ids']);

const worldSchema = z.object({
  data: z.object({ entityIds: z.array(uuid).min(1), virtualAccountIds: z.array(uuid).min(1) }),
});

/**
 * The sandbox bank's control API (`/sandbox/...`, behind its token): the demo plays the bank's side through
 * it, `bankflow sandbox ids` lists its ids.
 */
export function sandboxControl(baseUrl: string, token: string | undefined) {
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 404 && probePaths.has(path)) {
      // A real bank has no control API: nobody can play the customer at the bank, nor list its ids.
      throw new Error(
        `${baseUrl} has no sandbox control API (GET ${path} answered 404): this needs the sandbox bank`,
      );
    }
    if (!response.ok) throw new Error(`${method} ${baseUrl}${path} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  }

  return {
    /** Where the sandbox's payments go: its merchant entities and virtual accounts. */
    async world() {
      return worldSchema.parse(await call('GET', '/sandbox/world')).data;
    },
    /** Every id the sandbox holds, by kind. */
    async ids(): Promise<IdListing> {
      return z.object({ data: idListingSchema }).parse(await call('GET', '/sandbox/ids')).data;
    },
    /** The customer authorizes the enrollment at the bank, as the bank's own page would let them. */
    async authorizeAtBank(enrollmentId: string): Promise<void> {
      await call(
        'POST',
        `/sandbox/biometrics/enrollments/${encodeURIComponent(enrollmentId)}/bank-authorization`,
        {},
      );
    },
  };
}
