import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { developmentSupportLookupSecret } from '../development.js';
import { httpUrl, type Parsed } from './fields.js';
import type { TemporalToolsEnv } from './temporal-tools.js';

/**
 * What support tooling needs: the key customer lookups are hashed with, and the Temporal UI its links open.
 */
export const supportVariables = {
  /**
   * Keys the hash of a customer's tax number that workflows carry as BankflowCustomerKey, so support staff
   * find a customer by CPF/CNPJ while the number itself never reaches Temporal's visibility store.
   */
  SUPPORT_LOOKUP_SECRET: secret(
    z
      .string()
      .trim()
      .min(32, 'must be at least 32 characters (generate one: openssl rand -base64 32)')
      .optional(),
  ),
  /** Where support staff open the Temporal UI; links printed by `bankflow support` point here. */
  TEMPORAL_UI_URL: httpUrl.optional(),
};

export type SupportEnv = Parsed<typeof supportVariables>;

export interface SupportConfig {
  lookupSecret: string;
  uiUrl: string;
}

export function supportConfig(env: SupportEnv & Pick<TemporalToolsEnv, 'TEMPORAL_UI_PORT'>): SupportConfig {
  return {
    // Production refuses to start without its own secret (src/production-checks.ts).
    lookupSecret: env.SUPPORT_LOOKUP_SECRET ?? developmentSupportLookupSecret,
    uiUrl: env.TEMPORAL_UI_URL ?? `http://localhost:${env.TEMPORAL_UI_PORT}`,
  };
}
