import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';

const alreadyExists = 6;

/**
 * Registers the namespace unless it exists, then waits until the frontend serves it (it learns of new
 * namespaces on a cache refresh, about every 10 s), so workers that poll next do not fail on it.
 */
export async function ensureNamespace(
  connection: Pick<ConnectionLike, 'workflowService'>,
  namespace: string,
  retentionDays: number,
): Promise<'registered' | 'already registered'> {
  let outcome: 'registered' | 'already registered' = 'registered';
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(retentionDays * 86_400_000),
    });
  } catch (error) {
    if (!isGrpcServiceError(error) || error.code !== alreadyExists) throw error;
    outcome = 'already registered';
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await connection.workflowService.countWorkflowExecutions({ namespace, query: '' });
      return outcome;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
