import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config.js';

/**
 * A production configuration every check accepts, with secrets of the strength production asks, except for
 * the Temporal connection, which each test protects (or not) as it needs.
 */
export const productionEnv = () => ({
  BANKFLOW_ENV: 'production',
  BANK_BASE_URL: 'https://bank.example.com',
  BANK_CLIENT_ID: 'merchant-7',
  BANK_CLIENT_SECRET: randomBytes(16).toString('hex'),
  TEMPORAL_ENCRYPTION_KEYS: `prod-1:${randomBytes(32).toString('base64')}`,
  CODEC_AUTH_TOKENS: randomBytes(32).toString('base64'),
  WEBHOOK_SECRET: randomBytes(32).toString('base64'),
  SUPPORT_LOOKUP_SECRET: randomBytes(32).toString('base64'),
});

/** The message of the ConfigError `env` is refused with; fails the test when it is accepted. */
export function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}
