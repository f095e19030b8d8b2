import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import * as activities from './activities.js';

/**
 * The engine floor's worker: the skeleton workflow and its no-op activities on the task queue the bench
 * names, with Temporal's defaults, or the workflow cache SKELETON_MAX_CACHED_WORKFLOWS sets. Started by
 * bench/processes.ts; stops on SIGTERM.
 */
const address = process.env.TEMPORAL_ADDRESS ?? '';
const taskQueue = process.env.TEMPORAL_TASK_QUEUE ?? '';
if (!address || !taskQueue) throw new Error('TEMPORAL_ADDRESS and TEMPORAL_TASK_QUEUE must be set');
const cache = process.env.SKELETON_MAX_CACHED_WORKFLOWS;
const maxCachedWorkflows = cache === undefined ? undefined : Number(cache);
if (maxCachedWorkflows !== undefined && !(Number.isInteger(maxCachedWorkflows) && maxCachedWorkflows >= 0)) {
  throw new Error(`SKELETON_MAX_CACHED_WORKFLOWS: must be a whole number of workflows, got ${cache}`);
}

const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
  taskQueue,
  workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
  activities,
  ...(maxCachedWorkflows === undefined ? {} : { maxCachedWorkflows }),
});
process.once('SIGTERM', () => worker.shutdown());
process.stdout.write('skeleton worker running\n');
await worker.run();
await connection.close();
