import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

const here = path.dirname(fileURLToPath(import.meta.url));
/** `.ts` when run from source (tests), `.js` from `dist/`. */
const extension = path.extname(fileURLToPath(import.meta.url));

/** The workflows entry next to this file. */
export const workflowsPath = path.join(here, 'workflows', `index${extension}`);

/** Workflow interceptors bundled with the workflows: plaintext refused, the journeys' outcome metrics, traces. */
export const workflowInterceptorModules = [
  path.join(here, 'workflows', `plaintext-refusal${extension}`),
  path.join(here, 'workflows', `journey-metrics${extension}`),
  path.join(here, 'workflows', `tracing${extension}`),
];

/**
 * The workflow bundle `npm run build` writes (scripts/bundle-workflows.mjs). Only dist/ has one: a worker run
 * from source bundles at start, so it never runs a bundle older than the code beside it.
 */
export const prebuiltWorkflowBundlePath = path.join(here, 'workflows-bundle.js');

/** Bundles bankflow's workflows, as the worker would at start. */
export function bundleWorkflows(logger?: BundleOptions['logger']): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, ...(logger ? { logger } : {}) });
}

/** Whether this is a build with a prebuilt bundle. */
export const hasPrebuiltWorkflowBundle = () => existsSync(prebuiltWorkflowBundlePath);
