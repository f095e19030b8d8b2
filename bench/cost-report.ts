import { actionKinds, touchedTypes } from './actions.js';
import type { CostPathName, CostResult } from './cost.js';
import { fixed, table } from './report.js';

const pathLabels: Record<CostPathName, string> = {
  starter: 'bankflow/starter',
  api: 'merchant HTTP API',
  floor: 'engine floor (skeleton)',
};
const costPaths = Object.keys(pathLabels) as CostPathName[];

const ratio = (value: number, floor: number) =>
  Number.isFinite(value / floor) ? `${fixed(value / floor, 2)}x` : 'n/a';

export function renderCost(cost: CostResult): string[] {
  const { paths } = cost;
  const floor = paths.floor.perPayment;
  const types = (name: CostPathName) =>
    touchedTypes(paths[name].count)
      .map(
        ([type, of]) =>
          `${type} ${fixed(of.executions / paths[name].payments, 1)} / ${fixed(of.actions / paths[name].payments, 1)}`,
      )
      .join(', ');
  return [
    `7. Temporal cost per settled payment: ${cost.settings.payments} payments per path, one after another with nothing else running; every execution touched in the path's window counted from its history. ` +
      'Actions are the Temporal Cloud billable actions visible in history (bench/actions.ts): queries, activity heartbeats and rejected updates are not in it',
    table(
      [
        'path',
        'executions/payment',
        'actions/payment',
        'activities/payment',
        'timers/payment',
        'still open at the end',
        'executions / floor',
        'actions / floor',
        'cash-in missed',
      ],
      costPaths.map((name) => {
        const each = paths[name].perPayment;
        return [
          pathLabels[name],
          fixed(each.executions, 1),
          fixed(each.actions, 1),
          fixed(each.activities, 1),
          fixed(each.timers, 1),
          fixed(each.stillOpen, 1),
          ratio(each.executions, floor.executions),
          ratio(each.actions, floor.actions),
          `${paths[name].cashInMissed} of ${paths[name].payments}`,
        ];
      }),
    ),
    'Actions per payment by kind',
    table(
      ['kind', ...costPaths.map((name) => pathLabels[name])],
      actionKinds.map((kind) => [
        kind,
        ...costPaths.map((name) => fixed(paths[name].perPayment.byKind[kind], 1)),
      ]),
    ),
    `By workflow type, executions / actions per payment: ${costPaths.map((name) => `${pathLabels[name]}: ${types(name)}`).join('; ')}.`,
  ];
}
