import type { BiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { control } from './journey.js';
import type { TestStack } from './stack.js';

/**
 * Has the sandbox bank sign and send a `settled` event for `payment` that its own GET does not confirm (its
 * event stream ahead of its reads), with `data` over the payment's record.
 */
export async function sendUnconfirmedSettlement(
  stack: TestStack,
  payment: BiometricPayment,
  enrollmentId: string,
  data: Partial<BiometricPayment> = {},
): Promise<void> {
  await control(stack, 'POST', '/sandbox/webhooks/events', {
    category: webhookCategories.initiationDocument,
    type: 'settled',
    ref_id: payment.id,
    context_type: 'enrollment',
    context_id: enrollmentId,
    data: { ...payment, status: 'settled', updated_at: new Date().toISOString(), ...data },
  });
}
