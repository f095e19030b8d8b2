import type { Command } from 'commander';
import { InvalidInputError } from '../starter/errors.js';

/**
 * Adds `--wait <seconds>` and `--request-id <id>` to a command that asks a running workflow something and
 * waits for its answer.
 */
export function replyWaitOption(command: Command): Command {
  return command
    .option(
      '--wait <seconds>',
      "how long to wait for the workflow's answer; past it the request may still be carried out",
      '60',
    )
    .option(
      '--request-id <id>',
      "the request's idempotency key: asked again with the same id, the workflow gives its first answer instead of acting twice",
    );
}

/** `--wait` in milliseconds, for the starter context's `replyTimeoutMs`. */
export function parseReplyWait(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) {
    throw new InvalidInputError('--wait', 'must be a positive number of seconds');
  }
  return Number(value) * 1000;
}
