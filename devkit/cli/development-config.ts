import type { DevConfig } from '../config.js';

/**
 * The development kit's configuration for `command`, as a loader for cliContext: devkit/config.ts holds the
 * product's configuration and the Temporal data converter, which a command imports only when it runs.
 */
export const developmentConfig =
  (command: 'dev' | 'cluster' | 'sandbox' | 'demo') => async (): Promise<DevConfig> =>
    (await import('../config.js')).loadDevelopmentConfig(command);
