import { defineSignal } from '@temporalio/workflow';

/**
 * The workflow types that live past a deploy: each continues as new onto the deployment's current version at
 * its first workflow task after that version changed (src/workflows/shared/continue-as-new.ts). Every other
 * type's runs are short and finish on the version they started on.
 */
export const longLivedWorkflowTypes = [
  'enrollmentWorkflow',
  'recurrenceWorkflow',
  'merchantNotificationsWorkflow',
  'cashInHolderWorkflow',
  'unmatchedWebhookWorkflow',
] as const;

/**
 * Asks a long-lived run for a workflow task and nothing else. Temporal wakes no idle pinned run when a new
 * version becomes current, so `bankflow deployments move` sends this to the runs still pinned to an old
 * version: the task it makes is where each finds the new version and continues as new onto it, and the old
 * version drains now rather than within the day.
 */
export const versionCheckSignal = defineSignal('versionCheck');
