import { setTimeout as sleep } from 'node:timers/promises';
import { Client, WorkflowUpdateFailedError } from '@temporalio/client';
import {
  type BiometricPayment,
  finalBiometricPaymentStatuses,
} from '../../src/bank/schemas/biometric-payment.js';
import { type Enrollment, finalEnrollmentStatuses } from '../../src/bank/schemas/enrollment.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import {
  enrollmentWebhookSignal,
  registerCredentialUpdate,
  authorizeUpdate,
  paymentWebhookSignal,
} from '../../src/contract/temporal.js';
import { workflowIds } from '../../src/contract/ids.js';
import { UndecodableCodec, undecodableKinds } from './hostile-payloads.js';
import type { SandboxControl } from './sandbox-control.js';
import type { ChaosStack } from './stack.js';
import type { Violations } from './violations.js';

/** What the hostile actor sent, and how the workflows answered what it could check at once. */
export interface HostileCounts {
  /** Webhook signals labelled encrypted that do not decrypt (every kind of hostile-payloads.ts in turn). */
  undecodableSignals: number;
  /** Merchant updates (authorize, registerCredential) with such a payload; each must be refused. */
  undecodableUpdates: number;
  plaintextSignals: number;
  /** Webhook signals encrypted with the real codec, naming a status the bank's record does not show. */
  forgedWebhooks: number;
  /** Sends Temporal did not take: the workflow had closed, Temporal was restarting, no answer in time. */
  notDelivered: number;
}

export interface HostileActor {
  counts: HostileCounts;
  stop(): Promise<void>;
}

const actions = ['undecodable signal', 'undecodable update', 'plaintext signal', 'forged webhook'] as const;
/** How long one send may take: a merchant update waits for a worker, and workers are being killed. */
const sendDeadlineMs = 10_000;
const refusedUpdate = /^refused the update \w+: its payload (does not decrypt|is not encrypted) \(/;

/** A live journey's workflow, from the bank's records: a payment or an enrollment the bank has not closed. */
type Target =
  | { kind: 'payment'; workflowId: string; record: BiometricPayment }
  | { kind: 'enrollment'; workflowId: string; record: Enrollment };

async function liveTargets(control: SandboxControl): Promise<Target[]> {
  const payments = await control.get<BiometricPayment[]>('/sandbox/biometrics/payments');
  const enrollments = await control.get<Enrollment[]>('/sandbox/biometrics/enrollments');
  return [
    ...payments
      .filter(
        (payment) =>
          payment.external_id &&
          !(finalBiometricPaymentStatuses as readonly string[]).includes(payment.status),
      )
      .map((record): Target => ({
        kind: 'payment',
        workflowId: workflowIds.payment(record.external_id ?? ''),
        record,
      })),
    ...enrollments
      .filter(
        (enrollment) =>
          !(finalEnrollmentStatuses as readonly string[]).includes(enrollment.status) &&
          enrollment.status !== 'authorized',
      )
      .map((record): Target => ({
        kind: 'enrollment',
        workflowId: workflowIds.enrollment(record.device_id, record.participant_id),
        record,
      })),
  ];
}

/**
 * The event a forger would send had they the keys but not the bank's word: the target's own record, moved to
 * a final status the bank has not given it (a payment settled, with a made-up end-to-end id; an enrollment
 * authorized). A workflow takes a webhook only as a hint and asks the bank, so none may end on it; the
 * audit's confirmed-outcome check holds every workflow to the bank's records.
 */
function forgedEvent(target: Target, sequence: number) {
  const now = new Date().toISOString();
  if (target.kind === 'payment') {
    return receivedWebhook({
      category: webhookCategories.initiationDocument,
      type: 'settled',
      ref_id: target.record.id,
      timestamp: now,
      data: {
        ...target.record,
        status: 'settled',
        end_to_end_id: `E00000000${String(sequence).padStart(8, '0')}FORGED`,
        transaction_date: now.slice(0, 10),
        updated_at: now,
      },
    });
  }
  return receivedWebhook({
    category: webhookCategories.enrollment,
    type: 'authorized',
    ref_id: target.record.id,
    timestamp: now,
    data: { ...target.record, status: 'authorized', updated_at: now },
  });
}

/**
 * Someone with write access to the namespace, during the run: every 1-3 s (seeded) it picks a live journey
 * and sends it, in turn, a webhook signal that does not decrypt, a merchant update that does not decrypt, a
 * plaintext webhook signal, or a forged webhook encrypted with the real keys. An update it sends must be
 * refused by the workflow (anything else is a violation); what its signals did is for the audit (no failed
 * workflow task, no outcome the bank did not confirm). A send Temporal did not take is counted, not retried.
 */
export function startHostileActor(
  stack: ChaosStack,
  control: SandboxControl,
  seed: number,
  violations: Violations,
  log: (line: string) => void,
): HostileActor {
  const counts: HostileCounts = {
    undecodableSignals: 0,
    undecodableUpdates: 0,
    plaintextSignals: 0,
    forgedWebhooks: 0,
    notDelivered: 0,
  };
  const random = seededRandomFor(seed, 'chaos-hostile');
  const { connection } = stack.client;
  const namespace = stack.client.options.namespace;
  const keys = stack.config.temporal.encryptionKeys;
  const plaintext = new Client({ connection, namespace });
  const undecodable = undecodableKinds.map(
    (kind) =>
      new Client({
        connection,
        namespace,
        dataConverter: { payloadCodecs: [new UndecodableCodec(keys, kind)] },
      }),
  );
  const stopped = new AbortController();
  let sent = 0;

  const send = async (action: (typeof actions)[number], target: Target) => {
    const sequence = sent++;
    const client = random.pick(undecodable);
    const signal = target.kind === 'payment' ? paymentWebhookSignal : enrollmentWebhookSignal;
    const event = forgedEvent(target, sequence);
    const deadline = Date.now() + sendDeadlineMs;
    switch (action) {
      case 'undecodable signal':
        await connection.withDeadline(deadline, () =>
          client.workflow.getHandle(target.workflowId).signal(signal, event),
        );
        counts.undecodableSignals++;
        return;
      case 'plaintext signal':
        await connection.withDeadline(deadline, () =>
          plaintext.workflow.getHandle(target.workflowId).signal(signal, event),
        );
        counts.plaintextSignals++;
        return;
      case 'forged webhook':
        await connection.withDeadline(deadline, () =>
          stack.client.workflow.getHandle(target.workflowId).signal(signal, event),
        );
        counts.forgedWebhooks++;
        return;
      case 'undecodable update': {
        const handle = client.workflow.getHandle(target.workflowId);
        const bogus = {
          assertion: { id: 'AAAA', raw_id: 'AAAA', type: 'public-key' as const, response: {} },
        };
        const update: () => Promise<unknown> =
          target.kind === 'payment'
            ? () => handle.executeUpdate(authorizeUpdate, { args: [bogus as never] })
            : () => handle.executeUpdate(registerCredentialUpdate, { args: [bogus as never] });
        const answer = await connection.withDeadline(deadline, update).then(
          () => 'accepted',
          (error: unknown) => {
            if (error instanceof WorkflowUpdateFailedError) return error.cause?.message ?? error.message;
            throw error;
          },
        );
        counts.undecodableUpdates++;
        if (!refusedUpdate.test(answer)) {
          violations.add(
            'a payload that does not decrypt is refused',
            `${target.workflowId} (${target.kind})`,
            `an update with an undecodable payload was answered: ${answer.slice(0, 200)}`,
          );
        }
        return;
      }
    }
  };

  const loop = (async () => {
    for (let turn = 0; !stopped.signal.aborted; turn++) {
      await sleep(random.int(1_000, 3_000), undefined, { signal: stopped.signal }).catch(() => undefined);
      if (stopped.signal.aborted) return;
      const targets = await liveTargets(control).catch((): Target[] => []);
      const target = targets.length > 0 ? random.pick(targets) : undefined;
      const action = actions[turn % actions.length];
      if (!target || !action) continue;
      await send(action, target).catch(() => {
        counts.notDelivered++;
      });
    }
  })();

  return {
    counts,
    stop: async () => {
      stopped.abort();
      await loop;
      log(
        `hostile actor: ${counts.undecodableSignals} undecodable signals, ${counts.undecodableUpdates} undecodable ` +
          `updates, ${counts.plaintextSignals} plaintext signals, ${counts.forgedWebhooks} forged webhooks ` +
          `(${counts.notDelivered} not delivered)`,
      );
    },
  };
}
