import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { failureConverterPath } from './temporal/data-converter.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** `.ts` when run from source (tests), `.js` from `dist/`. */
const extension = path.extname(fileURLToPath(import.meta.url));

/** The workflows entry next to this file. */
export const workflowsPath = path.join(here, 'workflows', `index${extension}`);

/**
 * Workflow interceptors bundled with the workflows: plaintext refused and the journeys' outcome metrics
 * always; traces only in a traced bundle. Each workflow evaluates its bundle's modules again (the SDK's
 * reusable V8 context), and OpenTelemetry's cost a journey about 16 ms of CPU with tracing off
 * (docs/performance.md), so a worker that does not trace runs a bundle without them.
 */
export function workflowInterceptorModules(traced: boolean): string[] {
  return [
    path.join(here, 'workflows', `plaintext-refusal${extension}`),
    path.join(here, 'workflows', `journey-metrics${extension}`),
    ...(traced ? [path.join(here, 'workflows', `tracing${extension}`)] : []),
  ];
}

/**
 * The workflow bundles `npm run build` writes (scripts/bundle-workflows.mjs), one without traces and one
 * with. Only builds have them (dist/, and the tests' build, given the test run's own bundles by test/setup):
 * a worker run from source bundles at start, so it never runs a bundle older than the code beside it.
 */
export const prebuiltWorkflowBundlePath = (traced: boolean) =>
  path.join(here, traced ? 'workflows-bundle-traced.js' : 'workflows-bundle.js');

/**
 * Bundles bankflow's workflows, as the worker would at start, with the failure converter the clients use: a
 * workflow's own failures (a refusal, a job's bad window) are encrypted like its activities'.
 */
export function bundleWorkflows(
  traced: boolean,
  logger?: BundleOptions['logger'],
): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: workflowInterceptorModules(traced),
    failureConverterPath,
    ...(logger ? { logger } : {}),
  });
}

/** Whether this is a build with prebuilt bundles. */
export const hasPrebuiltWorkflowBundle = (traced: boolean) => existsSync(prebuiltWorkflowBundlePath(traced));
