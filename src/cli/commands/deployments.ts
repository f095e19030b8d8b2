import type { Command } from 'commander';
import type { DeploymentTarget, VersionView } from '../../temporal/deployments.js';
import { cliContext, printJson, withStarter, type CliContext } from '../context.js';
import { action } from '../errors.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';

/**
 * Recorded as who changed the deployment's routing, in the Temporal UI and `temporal worker deployment
 * describe`.
 */
const identity = 'bankflow deployments';

function withTarget<T>(ctx: CliContext, use: (target: DeploymentTarget) => Promise<T>): Promise<T> {
  return withStarter(ctx, (starter) =>
    use({
      service: starter.client.connection,
      namespace: ctx.config.temporal.namespace,
      deploymentName: ctx.config.temporal.deployment.name,
      taskQueue: ctx.config.temporal.taskQueue,
    }),
  );
}

const versionColumns: Column<VersionView>[] = [
  { title: 'BUILD ID', value: (v) => v.buildId },
  { title: 'STATE', value: (v) => (v.rampPercent === null ? v.state : `${v.state} ${v.rampPercent}%`) },
  { title: 'OPEN PINNED', value: (v) => String(v.openPinned) },
  { title: 'OPEN AUTO-UPGRADE', value: (v) => String(v.openAutoUpgrade) },
  { title: 'POLLERS', value: (v) => String(v.pollers) },
  { title: 'CREATED', value: (v) => v.createdAt ?? '' },
];

export function deploymentCommands(program: Command): void {
  const deployments = program
    .command('deployments')
    .description(
      "the worker versions of TEMPORAL_DEPLOYMENT_NAME (the task queue's name unless set): which one takes new " +
        'runs, and when an old one can stop',
    );

  deployments
    .command('list')
    .description('every version, newest first: its state, ramp, open runs and polling workers')
    .option('--table', 'print a table for people instead of JSON')
    .option('--ids', 'print only the build ids, one per line')
    .action(
      action(async (options: { table?: boolean; ids?: boolean }) => {
        const ctx = await cliContext();
        const { listVersions } = await import('../../temporal/deployments.js');
        const versions = await withTarget(ctx, listVersions);
        if (options.ids) printLines(versions.map((version) => version.buildId).join('\n'));
        else if (options.table) printLines(formatTable(versions, versionColumns));
        else printJson(versions);
      }),
    );

  deployments
    .command('promote')
    .description(
      'make a version current: new runs start on it, long-lived runs continue as new onto it at their next ' +
        'task; the other runs pinned to the old one finish there',
    )
    .argument('<build-id>', 'the version to make current (`bankflow deployments list --ids`)')
    .action(
      action(async (buildId: string) => {
        const ctx = await cliContext();
        const { promoteVersion } = await import('../../temporal/deployments.js');
        printJson(await withTarget(ctx, (target) => promoteVersion(target, buildId, identity)));
      }),
    );

  deployments
    .command('ramp')
    .description('send a share of new runs to a version beside the current one, before promoting it')
    .argument('<build-id>', 'the version to ramp')
    .requiredOption('--percent <n>', 'share of new runs, 0 to 100; 0 ends the ramp')
    .action(
      action(async (buildId: string, options: { percent: string }) => {
        const ctx = await cliContext();
        const { rampVersion } = await import('../../temporal/deployments.js');
        const percent = options.percent.trim() === '' ? Number.NaN : Number(options.percent);
        printJson(await withTarget(ctx, (target) => rampVersion(target, buildId, percent, identity)));
      }),
    );

  deployments
    .command('move')
    .description(
      'ask the long-lived runs still pinned to an old version to continue as new onto the current one now, ' +
        'rather than at their next task (within a day); its short runs still finish there',
    )
    .argument('<build-id>', 'the old version')
    .action(
      action(async (buildId: string) => {
        const ctx = await cliContext();
        const { moveLongLivedRuns } = await import('../../temporal/deployments.js');
        printJson(await withTarget(ctx, (target) => moveLongLivedRuns(target, buildId, identity)));
      }),
    );

  deployments
    .command('drained')
    .description(
      "whether a version's workers can stop: it takes no new runs and no open run is pinned to it " +
        '(exit 0), or why not (exit 1)',
    )
    .argument('<build-id>', 'the old version')
    .action(
      action(async (buildId: string) => {
        const ctx = await cliContext();
        const { versionDrainage } = await import('../../temporal/deployments.js');
        const drainage = await withTarget(ctx, (target) => versionDrainage(target, buildId));
        printJson(drainage);
        if (!drainage.drained) process.exitCode = 1;
      }),
    );
}
