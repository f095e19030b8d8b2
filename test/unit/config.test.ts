import {
  ConfigError,
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
  loadConfig,
} from '../../src/config.js';

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('defaults to the embedded development stack', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.temporal.address).toBeUndefined();
    expect(config.temporal.namespace).toBe('default');
    expect(config.temporal.tls).toBe(false);
    expect(config.temporal.uiPort).toBe(8233);
    expect(config.bank.baseUrl).toBeUndefined();
    expect(config.webhooks.secrets).toEqual([developmentWebhookSecret]);
    expect(loadConfig({ BANKFLOW_ENV: 'test' }).webhooks.secrets).toEqual([]);
  });

  it('names the variable and the reason for a bad value', () => {
    expect(problemsOf({ TEMPORAL_UI_PORT: 'eighty' })).toMatch(/TEMPORAL_UI_PORT: .*number.*"eighty"/);
    expect(problemsOf({ BANK_TIMEOUT_MS: '-5' })).toMatch(/BANK_TIMEOUT_MS: .*"-5"/);
    expect(problemsOf({ BANK_BASE_URL: 'ftp://bank' })).toMatch(/BANK_BASE_URL: /);
    expect(problemsOf({ LOG_LEVEL: 'loud' })).toMatch(/LOG_LEVEL: .*"loud"/);
    expect(problemsOf({ WEBHOOK_AUTH_DISABLED: 'maybe' })).toMatch(/WEBHOOK_AUTH_DISABLED: /);
  });

  it('reports every bad variable at once', () => {
    const message = problemsOf({ TEMPORAL_DEV_PORT: '70000', SANDBOX_SEED: 'x' });
    expect(message).toContain('TEMPORAL_DEV_PORT');
    expect(message).toContain('SANDBOX_SEED');
  });

  it('requires a real bank and webhook authentication in production', () => {
    const message = problemsOf({ BANKFLOW_ENV: 'production', WEBHOOK_AUTH_DISABLED: 'true' });
    expect(message).toMatch(/BANK_BASE_URL: is required when BANKFLOW_ENV=production/);
    expect(message).toMatch(/WEBHOOK_AUTH_DISABLED: cannot be true/);
  });

  it('requires payload encryption keys and codec credentials in production, and refuses the public key', () => {
    const missing = problemsOf({ BANKFLOW_ENV: 'production', BANK_BASE_URL: 'https://bank.example.com' });
    expect(missing).toMatch(/TEMPORAL_ENCRYPTION_KEYS: is required when BANKFLOW_ENV=production/);
    expect(missing).toMatch(/CODEC_AUTH_USERS: or CODEC_AUTH_TOKENS is required/);
    const publicKey = problemsOf({
      BANKFLOW_ENV: 'production',
      BANK_BASE_URL: 'https://bank.example.com',
      TEMPORAL_ENCRYPTION_KEYS: developmentEncryptionKeys,
      CODEC_AUTH_TOKENS: 't',
    });
    expect(publicKey).toMatch(/TEMPORAL_ENCRYPTION_KEYS: holds the public development key/);
    expect(problemsOf({ TEMPORAL_ENCRYPTION_KEYS: 'k1:short' })).toMatch(
      /TEMPORAL_ENCRYPTION_KEYS: key k1 must be 32 bytes/,
    );
  });

  it("requires the deployment's own customer lookup secret in production, and a long one anywhere", () => {
    const production = { BANKFLOW_ENV: 'production', BANK_BASE_URL: 'https://bank.example.com' };
    expect(problemsOf(production)).toMatch(
      /SUPPORT_LOOKUP_SECRET: is required when BANKFLOW_ENV=production .*openssl rand -base64 32/,
    );
    expect(problemsOf({ ...production, SUPPORT_LOOKUP_SECRET: developmentSupportLookupSecret })).toMatch(
      /SUPPORT_LOOKUP_SECRET: is the public development secret; generate your own/,
    );
    expect(problemsOf({ SUPPORT_LOOKUP_SECRET: 'short' })).toMatch(
      /SUPPORT_LOOKUP_SECRET: must be at least 32 characters .*"short"/,
    );
    expect(loadConfig({}).support).toEqual({
      lookupSecret: developmentSupportLookupSecret,
      uiUrl: 'http://localhost:8233',
    });
    const own = 'x'.repeat(32);
    expect(
      loadConfig({ SUPPORT_LOOKUP_SECRET: own, TEMPORAL_UI_URL: 'https://ui.example.com' }).support,
    ).toEqual({
      lookupSecret: own,
      uiUrl: 'https://ui.example.com',
    });
  });

  it('requires the mTLS certificate and key together', () => {
    expect(problemsOf({ TEMPORAL_TLS_CERT_PATH: '/tmp/client.pem' })).toMatch(/TEMPORAL_TLS_KEY_PATH: /);
  });

  it('turns on TLS for Temporal Cloud API keys and client certificates', () => {
    expect(loadConfig({ TEMPORAL_API_KEY: 'key' }).temporal.tls).not.toBe(false);
    const mtls = loadConfig({ TEMPORAL_TLS_CERT_PATH: '/c.pem', TEMPORAL_TLS_KEY_PATH: '/k.pem' }).temporal
      .tls;
    expect(mtls).toMatchObject({ clientCertPath: '/c.pem', clientKeyPath: '/k.pem' });
  });
});
