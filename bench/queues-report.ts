import type { QueuesResult } from './queues.js';
import { fixed, table, type TargetCheck } from './report.js';

/** Under a second: a customer waiting on a checkout notices no pause for the bank's budget. */
const interactiveWaitTargetMs = 1_000;
/** The background share counts as saturated at this part of it used. */
const saturated = 0.8;

export function queuesTargets(queues: QueuesResult): TargetCheck[] {
  const { settings, shares } = queues;
  const setup = `${settings.workers} workers, budget ${settings.requestsPerSecond}/s (interactive ${shares.interactive}, background ${shares.background})`;
  return [
    {
      target: `queues (${setup}): background load saturating its share (>= ${saturated}x)`,
      measured: `${fixed(queues.backgroundPerSecond, 1)} of ${shares.background} calls/s`,
      met: queues.backgroundPerSecond >= saturated * shares.background,
    },
    {
      target: `queues: interactive p99 wait for a bank slot < ${interactiveWaitTargetMs / 1000} s while the background is saturated`,
      measured: `${fixed(queues.interactiveWaitMs.p99)} ms over ${queues.interactiveWaitMs.calls} calls of ${queues.journeys} journeys`,
      met: queues.interactiveWaitMs.p99 < interactiveWaitTargetMs,
    },
    {
      target: `queues: bank calls never above the budget, ${settings.requestsPerSecond}/s holding one second's worth (the sandbox answers 429 past it): 0 x 429, mean <= budget`,
      measured: `${queues.rateLimited} answered 429; mean ${fixed(queues.bankCallsPerSecond.mean, 1)}/s, busiest whole second ${queues.bankCallsPerSecond.max}`,
      met: queues.bankCallsPerSecond.mean <= settings.requestsPerSecond && queues.rateLimited === 0,
    },
  ];
}

export function renderQueues(queues: QueuesResult): string[] {
  const { settings, shares } = queues;
  const wait = queues.interactiveWaitMs;
  return [
    `5. Task queues by workload: ${settings.workers} \`bankflow worker\` processes, BANK_RATE_LIMIT_PER_SECOND=${settings.requestsPerSecond} (interactive ${settings.interactiveSharePercent} %), the sandbox answering 429 past it; an attempts sync saturates the background share while ${settings.customers} customers pay one journey after another for ${fixed(settings.durationMs / 1000)} s`,
    table(
      [
        'journeys',
        'interactive calls/s (share)',
        'interactive wait p50 / p99 / max ms',
        'bank calls/s mean / busiest second',
        'background calls/s (share)',
        '429',
      ],
      [
        [
          String(queues.journeys),
          `${fixed(queues.interactivePerSecond, 1)} (${shares.interactive})`,
          `${fixed(wait.p50)} / ${fixed(wait.p99)} / ${fixed(wait.max)}`,
          `${fixed(queues.bankCallsPerSecond.mean, 1)} / ${queues.bankCallsPerSecond.max}`,
          `${fixed(queues.backgroundPerSecond, 1)} (${shares.background})`,
          String(queues.rateLimited),
        ],
      ],
    ),
  ];
}
