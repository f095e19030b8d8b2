import { secret } from '../config-secrets.js';
import { developmentEncryptionKeys } from '../development.js';
import { EncryptionKeyError, parseEncryptionKeys, type EncryptionKey } from '../temporal/encryption.js';
import { optionalText, port, type Parsed } from './fields.js';

/** The payload keys every process shares with Temporal, and the Temporal CLI and UI bankflow points to. */
export const temporalToolsVariables = {
  /** `id:base64key,...`, current key first; encrypts every Temporal payload (AES-256-GCM). */
  TEMPORAL_ENCRYPTION_KEYS: secret(optionalText),
  TEMPORAL_CLI: optionalText,
  /** Searched for a `temporal` binary when TEMPORAL_CLI is unset. */
  PATH: optionalText,
  TEMPORAL_UI_PORT: port(8233),
};

export type TemporalToolsEnv = Parsed<typeof temporalToolsVariables>;

export interface TemporalToolsConfig {
  cliPath: string | undefined;
  /** Payload encryption keys, current first. */
  encryptionKeys: EncryptionKey[];
  searchPath: string | undefined;
  uiPort: number;
}

/** Keys that do not parse, said in the parser's words. */
export function encryptionKeyProblems(env: TemporalToolsEnv): { variable: string; message: string }[] {
  if (env.TEMPORAL_ENCRYPTION_KEYS === undefined) return [];
  try {
    parseEncryptionKeys(env.TEMPORAL_ENCRYPTION_KEYS);
    return [];
  } catch (error) {
    if (!(error instanceof EncryptionKeyError)) throw error;
    return [{ variable: 'TEMPORAL_ENCRYPTION_KEYS', message: error.message }];
  }
}

export function temporalToolsConfig(env: TemporalToolsEnv): TemporalToolsConfig {
  return {
    cliPath: env.TEMPORAL_CLI,
    encryptionKeys: parseEncryptionKeys(env.TEMPORAL_ENCRYPTION_KEYS ?? developmentEncryptionKeys),
    searchPath: env.PATH,
    uiPort: env.TEMPORAL_UI_PORT,
  };
}
