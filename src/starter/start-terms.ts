import type { TermDifference } from '../contract/journeys.js';

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

const described = (difference: TermDifference) =>
  'recorded' in difference || 'requested' in difference
    ? `${difference.field} (started with ${shown(difference.recorded)}, now ${shown(difference.requested)})`
    : `${difference.field} (differs)`;

/**
 * A start under a workflow id that was already started with other terms: it neither joins nor starts
 * anything. `fields` names every differing term.
 */
export class StartTermsConflictError extends Error {
  readonly fields: string[];

  constructor(
    readonly workflowId: string,
    readonly differences: TermDifference[],
  ) {
    super(
      `${workflowId} was started with other terms: ${differences.map(described).join(', ')}; repeat the first start's terms to join it`,
    );
    this.name = 'StartTermsConflictError';
    this.fields = differences.map((difference) => difference.field);
  }
}
