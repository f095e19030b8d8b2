import { z } from 'zod';
import type { Parsed } from './fields.js';

/**
 * Production is the default posture: only `bankflow dev` (so `npm start`), `bankflow cluster` and the tests
 * run in development, and they say so with BANKFLOW_ENV.
 */
export const generalVariables = {
  BANKFLOW_ENV: z.enum(['development', 'production']).default('production'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BANKFLOW_DATA_DIR: z.string().min(1).default('.data'),
};

export type GeneralEnv = Parsed<typeof generalVariables>;
