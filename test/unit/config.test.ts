import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
  envSchema,
  loadConfig,
  secretVariables,
} from '../../src/config.js';
import { loadDevelopmentConfig } from '../../devkit/config.js';
import { bankQueueRates } from '../../src/config/bank.js';
import { withholdSecrets } from '../../src/config-secrets.js';
import { temporalProfileVariables } from '../../src/config/temporal-profile.js';
import { productionChecks } from '../../src/production-checks.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';

describe('configuration', () => {
  // docs/decisions.md names this test: keep its name.
  it('runs as production unless BANKFLOW_ENV says otherwise, and names the variable when that fails', () => {
    const message = problemsOf({});
    expect(message).toMatch(/BANK_BASE_URL: is required when BANKFLOW_ENV=production/);
    // The fix comes before production's list: BANKFLOW_ENV=development to try it, or production and the rest.
    const [heading, first, ...rest] = message.split('\n');
    expect(heading).toBe('Invalid configuration:');
    expect(first).toMatch(
      /^ {2}BANKFLOW_ENV: is unset, so the production checks below apply: .*set BANKFLOW_ENV=development; .*BANKFLOW_ENV=production/,
    );
    expect(rest.length).toBeGreaterThan(1);
    expect(rest.filter((line) => line.startsWith('  BANKFLOW_ENV:'))).toEqual([]);
    expect(problemsOf({ BANKFLOW_ENV: 'production' })).not.toMatch(/BANKFLOW_ENV: is unset/);
  });

  it('runs dev in development unless told otherwise, and sandbox and demo only when told', () => {
    expect(loadDevelopmentConfig('dev', {}).env).toBe('development');
    expect(loadDevelopmentConfig('sandbox', { BANKFLOW_ENV: 'development' }).env).toBe('development');
    const refusal = (command: 'dev' | 'sandbox' | 'demo', env: Record<string, string>) => {
      try {
        loadDevelopmentConfig(command, env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected the command to be refused');
    };
    expect(refusal('dev', { BANKFLOW_ENV: 'production' })).toMatch(
      /BANKFLOW_ENV: is production, and bankflow dev runs only in development .*set BANKFLOW_ENV=development/,
    );
    expect(refusal('sandbox', {})).toMatch(
      /BANKFLOW_ENV: is unset \(production\), and bankflow sandbox runs only/,
    );
    expect(refusal('demo', {})).toMatch(/BANKFLOW_ENV: is unset \(production\), and bankflow demo runs only/);
    expect(refusal('dev', { BANKFLOW_ENV: 'test' })).toMatch(
      /BANKFLOW_ENV: is test, and bankflow dev runs only/,
    );
  });

  it('defaults to the embedded development stack in development', () => {
    const config = loadConfig({ BANKFLOW_ENV: 'development' });
    expect(config.env).toBe('development');
    expect(config.temporal.address).toBeUndefined();
    expect(config.temporal.namespace).toBe('default');
    expect(config.temporal.tls).toBe(false);
    expect(config.temporal.uiPort).toBe(8233);
    expect(config.bank.baseUrl).toBeUndefined();
    expect(config.webhooks.secrets).toEqual([developmentWebhookSecret]);
  });

  it('names the variable and the reason for a bad value', () => {
    expect(problemsOf({ BANKFLOW_ENV: 'development', TEMPORAL_UI_PORT: 'eighty' })).toMatch(
      /TEMPORAL_UI_PORT: .*number.*"eighty"/,
    );
    expect(problemsOf({ BANK_TIMEOUT_MS: '-5' })).toMatch(/BANK_TIMEOUT_MS: .*"-5"/);
    expect(problemsOf({ BANK_BASE_URL: 'ftp://bank' })).toMatch(/BANK_BASE_URL: /);
    expect(problemsOf({ LOG_LEVEL: 'loud' })).toMatch(/LOG_LEVEL: .*"loud"/);
    expect(problemsOf({ WEBHOOK_AUTH_DISABLED: 'maybe' })).toMatch(/WEBHOOK_AUTH_DISABLED: /);
  });

  it("reports every bad variable at once, the product's and the development kit's together", () => {
    const message = problemsOf({ TEMPORAL_UI_PORT: '70000', WEBHOOK_PORT: 'x' });
    expect(message).toContain('TEMPORAL_UI_PORT');
    expect(message).toContain('WEBHOOK_PORT');
    expect(() =>
      loadDevelopmentConfig('dev', { TEMPORAL_UI_PORT: 'x', TEMPORAL_DEV_PORT: '70000', SANDBOX_SEED: 'x' }),
    ).toThrow(/TEMPORAL_UI_PORT: [^]*SANDBOX_SEED: [^]*TEMPORAL_DEV_PORT: /);
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

  it('refuses in production what only the development stack may use, naming the variable and the fix', () => {
    const production = {
      BANKFLOW_ENV: 'production',
      BANK_BASE_URL: 'https://bank.example.com',
      BANK_CLIENT_ID: 'merchant-7',
      BANK_CLIENT_SECRET: 'issued-secret-of-the-bank',
      TEMPORAL_TLS: 'true',
      TEMPORAL_ENCRYPTION_KEYS: `prod-1:${randomBytes(32).toString('base64')}`,
      CODEC_AUTH_TOKENS: randomBytes(32).toString('base64'),
      WEBHOOK_SECRET: randomBytes(32).toString('base64'),
      SUPPORT_LOOKUP_SECRET: 'a-secret-of-this-deployment-32-chars-at-least',
    };
    expect(loadConfig(production).env).toBe('production');

    const refused = (overrides: Record<string, string | undefined>) =>
      problemsOf({ ...production, ...overrides });
    expect(refused({ TEMPORAL_TLS: 'false' })).toMatch(
      /TEMPORAL_TLS: is off in the Temporal profile and no API key turns it on: BANKFLOW_ENV=production refuses plaintext Temporal; set TEMPORAL_TLS=true .*TEMPORAL_PLAINTEXT_ALLOWED=true .*\(the TEMPORAL_\* variables alone\)/,
    );
    expect(
      loadConfig({ ...production, TEMPORAL_TLS: 'false', TEMPORAL_PLAINTEXT_ALLOWED: 'true' }).temporal.tls,
    ).toBe(false);
    expect(refused({ BANK_BASE_URL: 'http://bank.example.com' })).toMatch(
      /BANK_BASE_URL: must be an https:\/\/ URL when BANKFLOW_ENV=production .*use the bank's https address \(got "http:\/\/bank.example.com"\)/,
    );
    expect(refused({ BANK_CLIENT_ID: undefined })).toMatch(
      /BANK_CLIENT_ID: is the sandbox bank's client id \(the default\) .*set the client id the bank issued you/,
    );
    expect(refused({ BANK_CLIENT_SECRET: 'sandbox-secret' })).toMatch(
      /BANK_CLIENT_SECRET: is the sandbox bank's secret .*set the client secret the bank issued you/,
    );
    expect(refused({ WEBHOOK_SECRET: developmentWebhookSecret })).toMatch(
      /WEBHOOK_SECRET: is the public development secret; set the secret you share with the bank/,
    );
    expect(refused({ WEBHOOK_SECRET_PREVIOUS: developmentWebhookSecret })).toMatch(
      /WEBHOOK_SECRET_PREVIOUS: is the public development secret; unset it/,
    );
    expect(
      refused({
        TEMPORAL_ENCRYPTION_KEYS: `${production.TEMPORAL_ENCRYPTION_KEYS},${developmentEncryptionKeys}`,
      }),
    ).toMatch(/TEMPORAL_ENCRYPTION_KEYS: holds the public development key; generate your own/);
  });

  it('lists every production check with its exact error in docs/security.md', () => {
    const page = readFileSync('docs/security.md', 'utf8');
    const table = page.slice(page.indexOf('## Production checks'), page.indexOf('## How it is tested'));
    expect(productionChecks.length).toBeGreaterThan(10);
    for (const check of productionChecks) expect(table).toContain(`\`${check.variable}: ${check.message}\``);
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
      /SUPPORT_LOOKUP_SECRET: must be at least 32 characters .*\(got a secret of 5 characters, not shown\)/,
    );
    expect(loadConfig({ BANKFLOW_ENV: 'development' }).support).toEqual({
      lookupSecret: developmentSupportLookupSecret,
      uiUrl: 'http://localhost:8233',
    });
    const own = 'x'.repeat(32);
    expect(
      loadConfig({
        BANKFLOW_ENV: 'development',
        SUPPORT_LOOKUP_SECRET: own,
        TEMPORAL_UI_URL: 'https://ui.example.com',
      }).support,
    ).toEqual({
      lookupSecret: own,
      uiUrl: 'https://ui.example.com',
    });
  });

  it('wants signed, fresh webhooks by default; production refuses turning freshness off', () => {
    expect(loadConfig({ BANKFLOW_ENV: 'development' }).webhooks).toMatchObject({
      maxAgeMs: 300_000,
      acceptSecretHeader: false,
    });
    const relaxed = loadConfig({
      BANKFLOW_ENV: 'development',
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
});

describe('tracing configuration (OTEL_*)', () => {
  const developmentConfig = (env: Record<string, string>) =>
    loadConfig({ BANKFLOW_ENV: 'development', ...env });

  it('is off by default, and with OTEL_TRACES_EXPORTER=none whatever else is set', () => {
    expect(developmentConfig({}).tracing).toBeUndefined();
    expect(
      developmentConfig({
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      }).tracing,
    ).toBeUndefined();
  });

  it('sends to <endpoint>/v1/traces, to the traces endpoint as given, or to a local collector', () => {
    expect(developmentConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'bankflow',
    });
    expect(
      developmentConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp',
        OTEL_SERVICE_NAME: 'bankflow-worker',
      }).tracing,
    ).toMatchObject({ tracesUrl: 'https://traces.example.com/otlp', serviceName: 'bankflow-worker' });
    expect(developmentConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing?.tracesUrl).toBe(
      'http://localhost:4318/v1/traces',
    );
  });

  it('reads export headers as key=value pairs, values percent-decoded', () => {
    expect(
      developmentConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, x-team = payments',
      }).tracing?.headers,
    ).toEqual({ 'x-api-key': 'abc==', 'x-team': 'payments' });
  });

  it('refuses a malformed endpoint, an unknown exporter and malformed headers, naming the variable', () => {
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: '127.0.0.1:4318' })).toMatch(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL such as http:\/\/127\.0\.0\.1:4318 \(got "127\.0\.0\.1:4318"\)/,
    );
    expect(problemsOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector' })).toMatch(
      /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http\(s\) URL/,
    );
    expect(problemsOf({ OTEL_TRACES_EXPORTER: 'jaeger' })).toMatch(
      /OTEL_TRACES_EXPORTER: must be otlp or none/,
    );
    expect(problemsOf({ OTEL_EXPORTER_OTLP_HEADERS: 'just-a-token' })).toMatch(
      /OTEL_EXPORTER_OTLP_HEADERS: must be key=value pairs/,
    );
  });
});

/** A production configuration every check accepts, with secrets of the strength production asks. */
const strongProduction = { ...productionEnv(), TEMPORAL_TLS: 'true' };

describe('secret variables in configuration errors', () => {
  it('marks every variable that holds a credential or key as secret, present and future', () => {
    // Flags about secrets, not secrets.
    const names = [...Object.keys(envSchema.shape), ...Object.keys(temporalProfileVariables)].filter(
      (name) => name !== 'WEBHOOK_ACCEPT_SECRET_HEADER',
    );
    const credentialLike = names.filter((name) =>
      /SECRET|TOKEN|PASSWORD|API_KEY|ENCRYPTION_KEYS|_USERS$|HEADERS|_DATA$|GRPC_META/.test(name),
    );
    expect(credentialLike.length).toBeGreaterThan(10);
    for (const name of credentialLike) expect([name, secretVariables.has(name)]).toEqual([name, true]);
  });

  it('shows a refused secret by its length, never its value', () => {
    const leaked = `leak-${randomBytes(8).toString('hex')}`;
    // A value each secret variable refuses: malformed or, in production, too weak; each holds `leaked`.
    const refusedValue: Record<string, string> = {
      TEMPORAL_ENCRYPTION_KEYS: `k1:${Buffer.from(leaked).toString('base64')}`,
      CODEC_AUTH_USERS: `${leaked},ana:`,
      CODEC_ENCODE_USERS: `${leaked},ana:`,
      OTEL_EXPORTER_OTLP_HEADERS: leaked,
      SUPPORT_LOOKUP_SECRET: leaked,
    };
    for (const name of secretVariables) {
      const value = refusedValue[name] ?? leaked;
      const message = problemsOf({ ...strongProduction, WEBHOOK_AUTH_DISABLED: 'true', [name]: value });
      expect(message).not.toContain(leaked);
      expect(message).not.toContain(Buffer.from(leaked).toString('base64'));
      if (message.includes(`${name}:`))
        expect(message).toContain(`a secret of ${value.length} characters, not shown`);
    }
    expect(problemsOf({ ...strongProduction, TEMPORAL_ENCRYPTION_KEYS: `k1:${leaked}` })).toMatch(
      /TEMPORAL_ENCRYPTION_KEYS: key k1 must be 32 bytes \(base64 of 32 random bytes\), got \d+ \(got a secret of \d+ characters, not shown\)/,
    );
  });

  it('withholds any part of a secret value a message came to quote', () => {
    const values = ['k1:c2VjcmV0LWtleS1tYXRlcmlhbA==', 'ana:correct-horse, bob:battery-staple'];
    expect(
      withholdSecrets(
        'c2VjcmV0LWtleS1tYXRlcmlhbA== and correct-horse and bob:battery-staple, not k1 nor ana',
        values,
      ),
    ).toBe('[secret] and [secret] and [secret], not k1 nor ana');
  });

  it('never shows credentials written into a URL, whatever variable holds it', () => {
    const password = 'url-password-7f3a9c';
    const problems = problemsOf({
      ...strongProduction,
      BANK_BASE_URL: `http://svc:${password}@bank.example.com`,
      OTEL_EXPORTER_OTLP_ENDPOINT: `https://svc:${password}@collector example`,
    });
    expect(problems).toMatch(/BANK_BASE_URL/);
    expect(problems).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(problems).not.toContain(password);
    expect(withholdSecrets(`got "https://svc:${password}@bank.example.com/x"`, [])).toBe(
      'got "https://[secret]@bank.example.com/x"',
    );
  });
});

describe('production minimums for secrets and bounds for windows', () => {
  const refused = (overrides: Record<string, string>) => problemsOf({ ...strongProduction, ...overrides });

  it('accepts secrets of the minimum strength', () => {
    expect(loadConfig(strongProduction).env).toBe('production');
    expect(
      loadConfig({
        ...strongProduction,
        // Exactly the minimums: 16 characters of 8 different ones for a password, 32 for a token (random hex
        // of that length has fewer than 8 different characters now and then).
        CODEC_AUTH_USERS: 'ana:abcdefghabcdefgh',
        CODEC_ENCODE_TOKENS: 'abcdefgh'.repeat(4),
      }).codec,
    ).toMatchObject({ users: [expect.stringMatching(/^ana:/)], encodeTokens: [expect.any(String)] });
  });

  it('refuses a one-character webhook secret and a weak previous one', () => {
    expect(refused({ WEBHOOK_SECRET: 'x' })).toMatch(
      /WEBHOOK_SECRET: must be at least 32 characters, of at least 8 different ones, when BANKFLOW_ENV=production/,
    );
    expect(refused({ WEBHOOK_SECRET_PREVIOUS: 'ab'.repeat(20) })).toMatch(
      /WEBHOOK_SECRET_PREVIOUS: must be at least 32 characters, of at least 8 different ones/,
    );
  });

  it('refuses weak codec tokens and passwords, and empty ones', () => {
    expect(refused({ CODEC_AUTH_TOKENS: `${randomBytes(32).toString('base64')},abc` })).toMatch(
      /CODEC_AUTH_TOKENS: needs tokens of at least 32 characters.*\(token 2\)/,
    );
    expect(refused({ CODEC_ENCODE_TOKENS: 'abc' })).toMatch(
      /CODEC_ENCODE_TOKENS: needs tokens of at least 32/,
    );
    expect(refused({ CODEC_AUTH_USERS: 'ana:' })).toMatch(
      /CODEC_AUTH_USERS: entry 1 must be user:password, neither of them empty/,
    );
    expect(problemsOf({ BANKFLOW_ENV: 'development', CODEC_AUTH_USERS: 'ana: ' })).toMatch(
      /CODEC_AUTH_USERS: entry 1 must be user:password/,
    );
    expect(refused({ CODEC_ENCODE_USERS: `ana:${randomBytes(12).toString('hex')},bob:hunter2` })).toMatch(
      /CODEC_ENCODE_USERS: needs passwords of at least 16 characters.*\(user bob\)/,
    );
  });

  it('refuses a non-random encryption key, naming its id', () => {
    const key = (bytes: Buffer) =>
      `${strongProduction.TEMPORAL_ENCRYPTION_KEYS},old:${bytes.toString('base64')}`;
    for (const bytes of [
      Buffer.alloc(32),
      Buffer.alloc(32, 0xa5),
      Buffer.from('0123456789abcdef'.repeat(2)),
      Buffer.alloc(32, Buffer.from([1, 2, 3, 4])),
      Buffer.from('correct horse battery staple 123'),
    ]) {
      expect(refused({ TEMPORAL_ENCRYPTION_KEYS: key(bytes) })).toMatch(
        /TEMPORAL_ENCRYPTION_KEYS: holds a key that is not random bytes .*\(key old\)/,
      );
    }
    expect(loadConfig({ ...strongProduction, TEMPORAL_ENCRYPTION_KEYS: key(randomBytes(32)) }).env).toBe(
      'production',
    );
  });

  it('refuses a weak bank secret, Temporal API key and lookup secret', () => {
    expect(refused({ BANK_CLIENT_SECRET: 'issued-secret' })).toMatch(
      /BANK_CLIENT_SECRET: must be at least 16 characters, of at least 8 different ones/,
    );
    expect(refused({ TEMPORAL_API_KEY: 'short-key' })).toMatch(
      /TEMPORAL_API_KEY: must be at least 16 characters/,
    );
    expect(refused({ SUPPORT_LOOKUP_SECRET: 'x'.repeat(64) })).toMatch(
      /SUPPORT_LOOKUP_SECRET: must be at least 32 characters, of at least 8 different ones/,
    );
  });

  it('trims every secret before it is checked', () => {
    expect(refused({ BANK_CLIENT_SECRET: '  sandbox-secret \n' })).toMatch(
      /BANK_CLIENT_SECRET: is the sandbox bank's secret/,
    );
    expect(refused({ BANK_CLIENT_ID: ' sandbox-client ' })).toMatch(
      /BANK_CLIENT_ID: is the sandbox bank's client id/,
    );
    expect(refused({ WEBHOOK_SECRET: ` ${developmentWebhookSecret}\n` })).toMatch(
      /WEBHOOK_SECRET: is the public development secret/,
    );
    const secret = randomBytes(32).toString('base64');
    // Its own: production refuses a secret reused across roles (test/unit/secret-reuse.test.ts).
    const password = randomBytes(32).toString('base64');
    const trimmed = loadConfig({
      ...strongProduction,
      BANK_CLIENT_SECRET: ` ${strongProduction.BANK_CLIENT_SECRET}\n`,
      WEBHOOK_SECRET: `${secret} `,
      CODEC_AUTH_USERS: ` ana : ${password} `,
    });
    expect(trimmed.bank.clientSecret).toBe(strongProduction.BANK_CLIENT_SECRET);
    expect(trimmed.webhooks.secrets).toEqual([secret]);
    expect(trimmed.codec.users).toEqual([`ana:${password}`]);
  });

  it('bounds the freshness window and every other window, timeout and size', () => {
    expect(refused({ WEBHOOK_MAX_AGE_SECONDS: String(30 * 365 * 86_400) })).toMatch(
      /WEBHOOK_MAX_AGE_SECONDS: must be at most 86400 \(a day\)/,
    );
    expect(loadConfig({ ...strongProduction, WEBHOOK_MAX_AGE_SECONDS: '86400' }).webhooks.maxAgeMs).toBe(
      86_400_000,
    );
    const development = (env: Record<string, string>) => problemsOf({ BANKFLOW_ENV: 'development', ...env });
    expect(development({ BANK_TIMEOUT_MS: '600000' })).toMatch(/BANK_TIMEOUT_MS: must be at most 20000 ms/);
    expect(development({ BANK_RATE_LIMIT_PER_SECOND: '1e9' })).toMatch(
      /BANK_RATE_LIMIT_PER_SECOND: must be at most 10000 requests per second/,
    );
    expect(() =>
      loadDevelopmentConfig('sandbox', { BANKFLOW_ENV: 'development', SANDBOX_RATE_LIMIT_PER_SECOND: '1e9' }),
    ).toThrow(/SANDBOX_RATE_LIMIT_PER_SECOND: must be at most 10000 requests per second/);
    expect(development({ TEMPORAL_MAX_CACHED_WORKFLOWS: '1000000' })).toMatch(
      /TEMPORAL_MAX_CACHED_WORKFLOWS: must be at most 10000/,
    );
  });

  it('splits BANK_RATE_LIMIT_PER_SECOND between the two bank queues, the interactive share first', () => {
    const bank = (env: Record<string, string>) =>
      bankQueueRates(loadConfig({ BANKFLOW_ENV: 'development', ...env }).bank);
    expect(bank({})).toEqual({});
    expect(bank({ BANK_RATE_LIMIT_PER_SECOND: '20' })).toEqual({ interactive: 10, background: 5, polls: 5 });
    expect(bank({ BANK_RATE_LIMIT_PER_SECOND: '50', BANK_INTERACTIVE_SHARE_PERCENT: '30' })).toEqual({
      interactive: 15,
      background: 17.5,
      polls: 17.5,
    });
    const development = (env: Record<string, string>) => problemsOf({ BANKFLOW_ENV: 'development', ...env });
    expect(development({ BANK_INTERACTIVE_SHARE_PERCENT: '100' })).toMatch(
      /BANK_INTERACTIVE_SHARE_PERCENT: must be at most 99 \(each bank queue needs a share\)/,
    );
    expect(development({ BANK_INTERACTIVE_SHARE_PERCENT: '0' })).toMatch(
      /BANK_INTERACTIVE_SHARE_PERCENT: must be at least 1/,
    );
    expect(development({ BANK_INTERACTIVE_SHARE_PERCENT: '12.5' })).toMatch(
      /BANK_INTERACTIVE_SHARE_PERCENT: must be a whole number of percent/,
    );
  });

  it('takes BANK_POLL_READS_PER_SECOND out of the background share, leaving sync and report pages 1/s', () => {
    const rates = (env: Record<string, string>) =>
      bankQueueRates(loadConfig({ BANKFLOW_ENV: 'development', ...env }).bank);
    const split = rates({ BANK_RATE_LIMIT_PER_SECOND: '40', BANK_POLL_READS_PER_SECOND: '12' });
    expect(split).toEqual({ interactive: 20, background: 8, polls: 12 });
    expect(rates({ BANK_RATE_LIMIT_PER_SECOND: '40', BANK_POLL_READS_PER_SECOND: '19' }).background).toBe(1);
    for (const env of [productionEnv(), { BANKFLOW_ENV: 'development' }]) {
      const problems = (extra: Record<string, string>) => problemsOf({ ...env, ...extra });
      expect(problems({ BANK_POLL_READS_PER_SECOND: '5' })).toMatch(
        /BANK_POLL_READS_PER_SECOND: needs BANK_RATE_LIMIT_PER_SECOND: the poll budget is a part of the bank budget/,
      );
      expect(problems({ BANK_RATE_LIMIT_PER_SECOND: '40', BANK_POLL_READS_PER_SECOND: '19.5' })).toMatch(
        /BANK_POLL_READS_PER_SECOND: must be at most 19 reads per second: the background share is 20\/s .*keep at least 1\/s/,
      );
      expect(problems({ BANK_RATE_LIMIT_PER_SECOND: '40', BANK_POLL_READS_PER_SECOND: '0' })).toMatch(
        /BANK_POLL_READS_PER_SECOND: must be a number of requests per second above 0/,
      );
    }
  });

  it('refuses BANKFLOW_ENV=test, which once skipped every production check', () => {
    expect(problemsOf({ BANKFLOW_ENV: 'test' })).toMatch(/BANKFLOW_ENV: .*"development".*"production"/);
  });
});
