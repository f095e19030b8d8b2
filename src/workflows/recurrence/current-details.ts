import { formatReais } from '../../money.js';
import type { RecurrenceJourney } from './state.js';

/** The run as support staff read it in the Temporal UI (the workflow's current details, in markdown). */
export function currentDetails({
  externalId,
  state,
  table,
  recurrence,
}: Pick<RecurrenceJourney, 'externalId' | 'state' | 'table' | 'recurrence'>): string {
  const counts = table.countByStatus();
  const latest = table.latest();
  const amount = recurrence?.minimum_amount ?? recurrence?.first_payment_amount;
  return [
    `**Recurrence ${externalId}** — **${state.status ?? state.phase}**`,
    recurrence
      ? `${recurrence.description || 'Pix recurrence'}, ${recurrence.periodicity}${amount ? `, from ${formatReais(amount.amount)}` : ''}; bank id ${recurrence.id}`
      : 'Not generated at the bank yet',
    `Attempts: ${table.size}${
      Object.keys(counts).length
        ? ` (${Object.entries(counts)
            .map(([status, n]) => `${n} ${status}`)
            .join(', ')})`
        : ''
    }`,
    latest ? `Latest attempt ${latest.id}: ${latest.status} at ${latest.timestamp}` : 'No attempt yet',
    `Updates: ${state.updates.applied} applied, ${state.updates.duplicates} duplicates, ${state.updates.stale} stale; run ${state.runs}`,
    ...(state.reason ? [`Outcome: ${state.reason}`] : []),
  ].join('\n\n');
}
