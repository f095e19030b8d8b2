import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hashApiKey } from '../../src/api/keys.js';
import { loadConfig, secretVariables } from '../../src/config.js';
import { reusedSecretMessage } from '../../src/config/secret-reuse.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';

/** A production configuration every check accepts, each secret its own random value. */
const strongProduction = { ...productionEnv(), TEMPORAL_TLS: 'true' };
const fresh = () => randomBytes(32).toString('base64');

/** The problem lines of a refused configuration. */
const refused = (overrides: Record<string, string>) => problemsOf({ ...strongProduction, ...overrides });

/**
 * How each secret variable holds `secret`: as it is, as a key's base64, as a user's password, as the hash of
 * an API key, as a bearer header. The Temporal TLS data are PEM, which no other variable holds.
 */
const holding: Record<string, (secret: string) => Record<string, string>> = {
  TEMPORAL_ENCRYPTION_KEYS: (secret) => ({ TEMPORAL_ENCRYPTION_KEYS: `k2:${fresh()},k1:${secret}` }),
  CODEC_AUTH_USERS: (secret) => ({ CODEC_AUTH_USERS: `ana:${fresh()},bob:${secret}` }),
  CODEC_ENCODE_USERS: (secret) => ({ CODEC_ENCODE_USERS: `bob:${secret}` }),
  CODEC_AUTH_TOKENS: (secret) => ({ CODEC_AUTH_TOKENS: `${fresh()},${secret}` }),
  API_KEYS: (secret) => ({ API_KEYS: `checkout:${hashApiKey(secret)}` }),
  OTEL_EXPORTER_OTLP_HEADERS: (secret) => ({
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(`Bearer ${secret}`)}`,
  }),
  TEMPORAL_GRPC_META_: (secret) => ({ TEMPORAL_GRPC_META_AUTHORIZATION: `Bearer ${secret}` }),
};
const notComparable = new Set([
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
]);
/** What names the entry holding the secret, after its variable, where it holds several. */
const entryOf: Record<string, string> = {
  TEMPORAL_ENCRYPTION_KEYS: 'key k1 ',
  CODEC_AUTH_USERS: 'user bob ',
  CODEC_ENCODE_USERS: 'user bob ',
  CODEC_AUTH_TOKENS: 'token 2 ',
  CODEC_ENCODE_TOKENS: 'token 1 ',
  API_KEYS: 'key checkout ',
  OTEL_EXPORTER_OTLP_HEADERS: 'header authorization ',
  TEMPORAL_GRPC_META_AUTHORIZATION: 'header authorization ',
};

describe('a secret reused across roles in production', () => {
  it('refuses NOTIFY_SECRET equal to WEBHOOK_SECRET or SUPPORT_LOOKUP_SECRET, naming both, never the value', () => {
    const webhook = refused({ NOTIFY_SECRET: strongProduction.WEBHOOK_SECRET });
    expect(webhook).toContain(
      `  WEBHOOK_SECRET: is the same secret as NOTIFY_SECRET, ${reusedSecretMessage} (got a secret of 44 characters, not shown)`,
    );
    expect(webhook).not.toContain(strongProduction.WEBHOOK_SECRET);

    const lookup = refused({ NOTIFY_SECRET_PREVIOUS: strongProduction.SUPPORT_LOOKUP_SECRET });
    expect(lookup).toMatch(/NOTIFY_SECRET_PREVIOUS: is the same secret as SUPPORT_LOOKUP_SECRET, when/);
    expect(lookup).not.toContain(strongProduction.SUPPORT_LOOKUP_SECRET);
  });

  it('refuses every secret variable holding another role’s secret, in whatever form it holds it', () => {
    const shared = strongProduction.SUPPORT_LOOKUP_SECRET;
    const checked = [...secretVariables].filter(
      (name) => name !== 'SUPPORT_LOOKUP_SECRET' && !notComparable.has(name),
    );
    expect(checked.length).toBeGreaterThan(12);
    for (const name of checked) {
      const env = (holding[name] ?? ((secret: string) => ({ [name]: secret })))(shared);
      const variable = Object.keys(env)[0] ?? name;
      const problems = refused(env);
      expect([name, problems]).toEqual([
        name,
        expect.stringContaining(
          `  ${variable}: ${entryOf[variable] ?? ''}is the same secret as SUPPORT_LOOKUP_SECRET, when`,
        ),
      ]);
      expect(problems).not.toContain(shared);
    }
  });

  it('names the entry on both sides: a decoding token that also encodes, a key pasted as a secret', () => {
    const token = fresh();
    expect(refused({ CODEC_AUTH_TOKENS: `${fresh()},${token}`, CODEC_ENCODE_TOKENS: token })).toMatch(
      /CODEC_AUTH_TOKENS: token 2 is the same secret as CODEC_ENCODE_TOKENS \(token 1\), when BANKFLOW_ENV=production/,
    );
    const key = randomBytes(32);
    expect(
      refused({
        TEMPORAL_ENCRYPTION_KEYS: `live:${key.toString('base64')}`,
        WEBHOOK_SECRET_PREVIOUS: key.toString('base64url'),
      }),
    ).toMatch(/TEMPORAL_ENCRYPTION_KEYS: key live is the same secret as WEBHOOK_SECRET_PREVIOUS, when/);
  });

  it('keeps the current and previous secret of one role free to be equal, and development free of it', () => {
    const secret = fresh();
    expect(
      loadConfig({ ...strongProduction, WEBHOOK_SECRET: secret, WEBHOOK_SECRET_PREVIOUS: secret }).webhooks
        .secrets,
    ).toEqual([secret, secret]);
    expect(
      loadConfig({ BANKFLOW_ENV: 'development', WEBHOOK_SECRET: secret, NOTIFY_SECRET: secret }).env,
    ).toBe('development');
  });

  it('is listed with its exact error in docs/security.md', () => {
    const page = readFileSync('docs/security.md', 'utf8');
    const table = page.slice(page.indexOf('## Production checks'), page.indexOf('## How it is tested'));
    expect(table).toContain(`\`<VARIABLE>: is the same secret as <OTHER VARIABLE>, ${reusedSecretMessage}\``);
  });
});
