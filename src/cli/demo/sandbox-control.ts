import { z } from 'zod';
import { uuid } from '../../bank/schemas/common.js';

const worldSchema = z.object({
  data: z.object({ entityIds: z.array(uuid).min(1), virtualAccountIds: z.array(uuid).min(1) }),
});

/** The sandbox bank's control API (`/sandbox/...`, unauthenticated): the demo plays the bank's side through it. */
export function sandboxControl(baseUrl: string) {
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 404 && path === '/sandbox/world') {
      // A real bank has no control API, and without it nobody can play the customer at the bank.
      throw new Error(
        `${baseUrl} has no sandbox control API (GET ${path} answered 404): the demo needs the sandbox bank`,
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
