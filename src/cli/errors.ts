import { printLines } from './terminal-text.js';

/**
 * Runs a CLI action, printing a one-line reason and exiting non-zero on failure. The reason is worked out by
 * rootMessage, imported only on failure: it knows Temporal's error classes, which a command's definition
 * never loads.
 */
export function action<Args extends unknown[]>(run: (...args: Args) => Promise<void>) {
  return async (...args: Args) => {
    try {
      await run(...args);
    } catch (error) {
      const { rootMessage } = await import('./failure-message.js');
      printLines(`error: ${rootMessage(error)}`, 'stderr');
      process.exitCode = 1;
    }
  };
}
