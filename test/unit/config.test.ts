import {
  ConfigError,
  developmentEncryptionKeys,
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

  it('wants signed, fresh webhooks by default; production refuses turning freshness off', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ maxAgeMs: 300_000, acceptSecretHeader: false });
    const relaxed = loadConfig({
      WEBHOOK_MAX_AGE_SECONDS: '0',
      WEBHOOK_ACCEPT_SECRET_HEADER: 'true',
    }).webhooks;
    expect(relaxed).toMatchObject({ maxAgeMs: undefined, acceptSecretHeader: true });
    expect(problemsOf({ BANKFLOW_ENV: 'production', WEBHOOK_MAX_AGE_SECONDS: '0' })).toMatch(
      /WEBHOOK_MAX_AGE_SECONDS: cannot be 0 when BANKFLOW_ENV=production .*unset it for 300 s/,
    );
    expect(problemsOf({ WEBHOOK_MAX_AGE_SECONDS: '-5' })).toMatch(
      /WEBHOOK_MAX_AGE_SECONDS: must be a number of seconds \(e.g. 300\) \(got "-5"\)/,
    );
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
