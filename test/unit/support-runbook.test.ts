import { readFileSync } from 'node:fs';
import { failureTypes } from '../../src/contract/journeys.js';
import { bankErrorRetryable } from '../../src/bank/vocabulary.js';
import { enrollmentPhases, paymentPhases, recurrencePhases } from '../../src/starter/published-state.js';
import { stuckRules } from '../../src/starter/support-queries.js';
import { jobStatuses } from '../../src/contract/jobs.js';
import { cashInHolderStatuses } from '../../src/contract/cash-in-holder.js';
import { unmatchedWebhookStatuses } from '../../src/contract/unmatched-webhook.js';

const runbook = readFileSync('docs/support.md', 'utf8');

/** The values a section's table lists in its first column, as `value`. */
function listed(heading: string): string[] {
  const start = runbook.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`docs/support.md has no "### ${heading}" section`);
  const end = runbook.indexOf('\n#', start + 1);
  const section = runbook.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1] ?? '');
}

describe('docs/support.md lists everything a workflow can publish', () => {
  it.each([
    ['Payment states', paymentPhases],
    ['Enrollment states', enrollmentPhases],
    ['Recurrence states', recurrencePhases],
    ['Unmatched webhook events', Object.values(unmatchedWebhookStatuses)],
    ['Pix cash-in holders', Object.values(cashInHolderStatuses)],
    ['Scheduled jobs', Object.values(jobStatuses)],
    ['Failure types', [...Object.values(failureTypes), ...Object.keys(bankErrorRetryable)]],
  ])('%s, each with its meaning and nothing it cannot publish', (heading, values) => {
    expect([...listed(heading)].sort()).toEqual([...values].sort());
  });

  it('names every state the stuck journeys are looked for in', () => {
    const stuckTable = runbook.slice(runbook.indexOf('## Stuck journeys'), runbook.indexOf('## Every state'));
    for (const rule of stuckRules) expect(stuckTable).toContain(`\`${rule.status}\``);
  });
});
