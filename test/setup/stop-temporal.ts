import type { TestWorkflowEnvironment } from '@temporalio/testing';

export async function stopTemporal(): Promise<void> {
  const env = (globalThis as { __bankflowTemporal?: TestWorkflowEnvironment }).__bankflowTemporal;
  await env?.teardown();
}
