import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { entries, optionalText, port, type Parsed } from './fields.js';
import type { TemporalToolsEnv } from './temporal-tools.js';

/** Comma-separated tokens, each trimmed. */
const tokenList = z.string().optional().transform(entries);
/** Comma-separated `user:password` pairs; user and password each trimmed, neither empty. */
const userList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const pairs = entries(value).map((entry) => {
      const colon = entry.indexOf(':');
      return colon < 0 ? ['', ''] : [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
    });
    const bad = pairs.findIndex(([user, password]) => !user || !password);
    if (bad >= 0) {
      // The entry's position, never its text: it holds a password.
      ctx.addIssue({
        code: 'custom',
        message: `entry ${bad + 1} must be user:password, neither of them empty`,
      });
      return z.NEVER;
    }
    return pairs.map(([user, password]) => `${user}:${password}`);
  });

/** The codec server the Temporal UI and CLI decrypt payloads through, and who may use it. */
export const codecVariables = {
  CODEC_HOST: z.string().min(1).default('127.0.0.1'),
  CODEC_PORT: port(4030),
  /** `user:password` pairs, comma-separated, for HTTP Basic on the codec server: they decode only. */
  CODEC_AUTH_USERS: secret(userList),
  /** Bearer tokens, comma-separated, for tools calling the codec server: they decode only. */
  CODEC_AUTH_TOKENS: secret(tokenList),
  /**
   * Users who may also encode (the Temporal UI's signal dialog), so a decoding credential cannot mint
   * payloads.
   */
  CODEC_ENCODE_USERS: secret(userList),
  /** Tokens that may also encode. */
  CODEC_ENCODE_TOKENS: secret(tokenList),
  /** Browser origins (the Temporal UI) allowed to call the codec server; default: the embedded UI. */
  CODEC_CORS_ORIGINS: optionalText,
};

export type CodecEnv = Parsed<typeof codecVariables>;

export interface CodecConfig {
  host: string;
  port: number;
  /** `user:password` pairs and tokens that decode only. */
  users: string[];
  tokens: string[];
  /** Those that may also encode. */
  encodeUsers: string[];
  encodeTokens: string[];
  corsOrigins: string[];
}

export function codecConfig(env: CodecEnv & Pick<TemporalToolsEnv, 'TEMPORAL_UI_PORT'>): CodecConfig {
  return {
    host: env.CODEC_HOST,
    port: env.CODEC_PORT,
    users: env.CODEC_AUTH_USERS,
    tokens: env.CODEC_AUTH_TOKENS,
    encodeUsers: env.CODEC_ENCODE_USERS,
    encodeTokens: env.CODEC_ENCODE_TOKENS,
    corsOrigins: env.CODEC_CORS_ORIGINS
      ? entries(env.CODEC_CORS_ORIGINS)
      : [`http://localhost:${env.TEMPORAL_UI_PORT}`, `http://127.0.0.1:${env.TEMPORAL_UI_PORT}`],
  };
}
