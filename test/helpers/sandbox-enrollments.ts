import { randomUUID } from 'node:crypto';
import type { BankClient } from '../../src/bank/client.js';
import type { RunningSandbox } from '../../devkit/sandbox/app.js';
import { sandboxControl } from './sandbox-control.js';

/**
 * A new customer's device and an enrollment with the first participant open to enrollments, at the sandbox.
 */
export async function createSandboxEnrollment(
  bank: BankClient,
  sandbox: RunningSandbox,
  returnToUrl: string,
) {
  const device = await bank.findOrCreateDevice({
    fingerprint: randomUUID(),
    counterparty_tax_number: '12345678909',
    counterparty_name: 'Maria Silva',
  });
  const participant = sandbox.state.biometrics.participants.find((p) => p.is_enrollment_available);
  const enrollment = await bank.createEnrollment({
    device_id: device.id,
    participant_id: participant?.id ?? '',
    return_to_url: returnToUrl,
  });
  return { device, participant, enrollment };
}

/** The customer pressing "authorize" on the bank's page: a customer route, so no control token. */
export async function authorizeAtSandboxBank(sandbox: RunningSandbox, enrollmentId: string): Promise<string> {
  const authorized = await sandboxControl(sandbox.url).post<{ data: { status: string } }>(
    `/sandbox/biometrics/enrollments/${enrollmentId}/bank-authorization`,
    {},
  );
  return authorized.body.data.status;
}
