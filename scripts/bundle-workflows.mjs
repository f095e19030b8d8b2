#!/usr/bin/env node
// Bundles the compiled workflows once at build time, so `bankflow worker` starts from this file instead of
// running webpack at every start (src/workflow-bundle.ts).
import { writeFileSync } from 'node:fs';
import { bundleWorkflows, prebuiltWorkflowBundlePath } from '../dist/src/workflow-bundle.js';

// Two bundles: traces only for the workers that trace (src/workflow-bundle.ts says why).
for (const traced of [false, true]) {
  const { code } = await bundleWorkflows(traced);
  writeFileSync(prebuiltWorkflowBundlePath(traced), code);
}
