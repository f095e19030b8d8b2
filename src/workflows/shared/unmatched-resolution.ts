import { setHandler } from '@temporalio/workflow';
import {
  resolveUnmatchedWebhookSignal,
  resolveUnmatchedWebhookUpdate,
  type UnmatchedWebhookResolution,
} from '../../contract/unmatched-webhook.js';

/**
 * Support's resolution of a kept event, by signal (the Temporal UI's dialog) or by update (`bankflow support
 * resolve`, refused without a note or once resolved). Answers the resolution given so far, `carried` the one
 * an earlier run of the workflow was given.
 */
export function acceptResolution(
  carried?: UnmatchedWebhookResolution,
): () => UnmatchedWebhookResolution | undefined {
  let resolution = carried;
  setHandler(resolveUnmatchedWebhookSignal, (given) => {
    resolution = given;
  });
  setHandler(
    resolveUnmatchedWebhookUpdate,
    (given) => {
      resolution = given;
      return given;
    },
    {
      validator: (given) => {
        if (resolution !== undefined) {
          throw new Error(`already resolved by ${resolution.by}: ${resolution.note}`);
        }
        // A caller other than the starter may send anything, so the shape is checked, not assumed.
        if (typeof given.note !== 'string' || given.note.trim() === '') {
          throw new Error('note: must say what was done about the event');
        }
        if (typeof given.by !== 'string' || given.by.trim() === '') {
          throw new Error('by: must name who resolves the event');
        }
      },
    },
  );
  return () => resolution;
}
