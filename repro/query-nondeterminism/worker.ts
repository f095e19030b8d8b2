/**
 * One worker in its own process, so the reproduction can SIGKILL it: a killed worker leaves its sticky task
 * queue behind, as a crashed pod does. Configured by run.ts through the environment.
 */
import { readFileSync } from 'node:fs';
import { NativeConnection, Worker } from '@temporalio/worker';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const connection = await NativeConnection.connect({ address: env('REPRO_ADDRESS') });
const deploymentName = process.env.REPRO_DEPLOYMENT_NAME;
const worker = await Worker.create({
  connection,
  namespace: env('REPRO_NAMESPACE'),
  taskQueue: env('REPRO_TASK_QUEUE'),
  workflowBundle: { code: readFileSync(env('REPRO_BUNDLE'), 'utf8') },
  ...(deploymentName
    ? {
        workerDeploymentOptions: {
          version: { deploymentName, buildId: env('REPRO_BUILD_ID') },
          useWorkerVersioning: true,
          defaultVersioningBehavior: 'PINNED' as const,
        },
      }
    : {}),
});
const running = worker.run();
process.stdout.write('worker running\n');
await running;
