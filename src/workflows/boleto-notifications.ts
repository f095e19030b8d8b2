import type { Boleto } from '../bank/schemas/boleto.js';
import { JourneyNotifier } from './shared/journey-run.js';

/** The fields of the bank's boleto a notification carries. */
export const notifiedBoleto = (boleto: Boleto) => ({
  id: boleto.id,
  external_id: boleto.external_id,
  virtual_account_id: boleto.virtual_account_id,
  status: boleto.status,
  amount: boleto.amount,
  description: boleto.description,
  issue_date: boleto.issue_date,
  expiration_date: boleto.expiration_date,
  due_date: boleto.due_detail.due_date,
});

/**
 * Tells the merchant that the bank's answer shows `boleto` cancelled: `boleto:<id>:1`, the one event a boleto
 * has. A cancellation run again (the bank answers it cancelled again) makes that event again with a new time;
 * the hand-over finds its id in the ended outbox and sends nothing (`endedOutboxHolds`).
 */
export async function notifyBoletoCancelled(boleto: Boleto): Promise<void> {
  const notifier = new JourneyNotifier(() => ({}));
  notifier.emit({ type: 'boleto', id: boleto.id }, 'boleto.cancelled', notifiedBoleto(boleto));
  await notifier.handedOverAll();
}
