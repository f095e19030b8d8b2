import { randomUUID } from 'node:crypto';
import { SoftwareAuthenticator } from '../devkit/authenticator/software-authenticator.js';
import { BankClient } from '../src/bank/client.js';
import {
  findOrCreateDevice,
  getRegistrationOptions,
  listParticipants,
  registerCredential,
  startEnrollment,
  waitForEnrollment,
} from '../src/starter/index.js';
import type { BenchStack } from './stack.js';

/** A customer with an authorized enrollment, whose device the software authenticator plays. */
export interface Customer {
  deviceId: string;
  participantId: string;
  enrollmentId: string;
  authenticator: SoftwareAuthenticator;
}

/** Plays the bank's side through the sandbox's control API, over HTTP. */
export async function control(stack: BenchStack, method: 'POST' | 'PUT', path: string, body: unknown = {}) {
  const response = await fetch(`${stack.sandbox.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data as Record<string, unknown>;
}

/** The sandbox merchant's entity and the account payments go to. */
export function merchant(stack: BenchStack) {
  const { entityIds, virtualAccountIds } = stack.sandbox.state.world;
  return { entityId: entityIds[0] ?? '', virtualAccountId: virtualAccountIds[0] ?? '' };
}

/**
 * A new device enrolled through bankflow's enrollment workflow: set-up for the payment benchmarks, not timed.
 */
export async function enrollCustomer(stack: BenchStack): Promise<Customer> {
  const ctx = { client: stack.client, taskQueue: stack.taskQueue };
  const bank = { bank: new BankClient(stack.bank, stack.logger) };
  const device = await findOrCreateDevice(bank, {
    fingerprint: `bench-${randomUUID()}`,
    counterparty_tax_number: '12345678909',
    counterparty_name: 'Maria Silva',
  });
  const participant = (await listParticipants(bank, { deviceId: device.id })).find(
    (candidate) => candidate.is_enrollment_available && !candidate.unavailable,
  );
  if (!participant) throw new Error('the sandbox has no participant open for enrollment');
  const key = { deviceId: device.id, participantId: participant.id };
  const authenticator = SoftwareAuthenticator.create();
  const started = await startEnrollment(ctx, { ...key, returnToUrl: 'https://merchant.example/enrolled' });
  await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`);
  // The options request waits in the workflow until the bank's authorization reached it.
  const options = await getRegistrationOptions(ctx, key);
  await registerCredential(ctx, {
    ...key,
    assertion: authenticator.createCredential(options, stack.sandbox.url),
  });
  const result = await waitForEnrollment(ctx, key);
  if (result.outcome !== 'authorized' || !result.enrollment) {
    throw new Error(`enrollment ended ${result.outcome}: ${result.reason}`);
  }
  return { ...key, enrollmentId: result.enrollment.id, authenticator };
}

/** Runs `task` over `items` with at most `limit` at a time, answering results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
