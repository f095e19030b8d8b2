import { rm } from 'node:fs/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';

export async function stopTemporal(): Promise<void> {
  const env = (globalThis as { __bankflowTemporal?: TestWorkflowEnvironment }).__bankflowTemporal;
  await env?.teardown();
  await (globalThis as { __bankflowUiCodec?: { stop(): Promise<void> } }).__bankflowUiCodec?.stop();
  const bundleDir = (globalThis as { __bankflowBundleDir?: string }).__bankflowBundleDir;
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
}
