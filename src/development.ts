/**
 * The public values the development stack works with out of the box. Everyone can read them here, so
 * production refuses each of them (src/production-checks.ts).
 */

/** The secret the sandbox signs webhooks with when SANDBOX_WEBHOOK_SECRET is unset; development only. */
export const developmentWebhookSecret = 'bankflow-sandbox-webhook-secret';

/** The payload key used when TEMPORAL_ENCRYPTION_KEYS is unset; development only, never secret. */
export const developmentEncryptionKeys = `dev-1:${Buffer.from('bankflow-development-only-key-32').toString('base64')}`;

/** The client credentials the sandbox bank accepts when BANK_CLIENT_ID and BANK_CLIENT_SECRET are unset. */
export const sandboxBankCredentials = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' };

/**
 * The key customer lookups are hashed with when SUPPORT_LOOKUP_SECRET is unset; development only, never
 * secret.
 */
export const developmentSupportLookupSecret = 'bankflow-development-only-support-lookup-secret';
