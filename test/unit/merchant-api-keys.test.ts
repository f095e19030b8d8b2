import pino from 'pino';
import {
  apiKeyName,
  developmentApiKey,
  developmentApiKeyEntry,
  hashApiKey,
  mintApiKey,
  parseApiKeyEntries,
} from '../../src/api/keys.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startApiServer } from '../../src/stack/api-process.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';

const production = () => ({ ...productionEnv(), TEMPORAL_TLS: 'true' });

describe('merchant API keys', () => {
  it('mints a random key, whose configuration entry holds only its name and SHA-256', () => {
    const minted = mintApiKey('checkout-backend');
    expect(minted.key).toMatch(/^bf_live_[\w-]{43}$/);
    expect(mintApiKey('checkout-backend').key).not.toBe(minted.key);
    expect(minted.configEntry).toBe(`checkout-backend:${hashApiKey(minted.key)}`);
    expect(minted.configEntry).not.toContain(minted.key.slice('bf_live_'.length));
    expect(() => mintApiKey('two words')).toThrow(/the key name must be 1 to 64 letters/);
  });

  it('finds the name of the key a token is, among several (rotation), and nothing for any other token', () => {
    const [old, current] = [mintApiKey('old'), mintApiKey('current')];
    const entries = [old.entry, current.entry];
    expect(apiKeyName(entries, old.key)).toBe('old');
    expect(apiKeyName(entries, current.key)).toBe('current');
    expect(apiKeyName(entries, current.entry.sha256)).toBeUndefined();
    expect(apiKeyName(entries, `${current.key} `)).toBeUndefined();
    expect(apiKeyName([], current.key)).toBeUndefined();
  });

  it('reads API_KEYS as name:sha256 entries, refusing a bad one by position without quoting it', () => {
    const minted = mintApiKey('backend');
    expect(
      loadConfig({ ...production(), API_KEYS: ` ${minted.configEntry} , other:${'a'.repeat(64)}` }).api.keys,
    ).toEqual([minted.entry, { name: 'other', sha256: 'a'.repeat(64) }]);
    // A key pasted in place of its hash is refused, and never shown.
    const pasted = problemsOf({ ...production(), API_KEYS: `${minted.configEntry},backend2:${minted.key}` });
    expect(pasted).toMatch(/API_KEYS: entry 2 must be name:sha256/);
    expect(pasted).not.toContain(minted.key);
    expect(parseApiKeyEntries([minted.configEntry, minted.configEntry])).toEqual({
      problem: 'entry 2 repeats the name backend; each key needs a name of its own',
    });
  });

  it('refuses the development key in production, naming API_KEYS and the entry, never a key', () => {
    const message = problemsOf({
      ...production(),
      API_KEYS: `${mintApiKey('live').configEntry},dev:${developmentApiKeyEntry.sha256}`,
    });
    expect(message).toMatch(
      /API_KEYS: holds the public development key when BANKFLOW_ENV=production; .* \(key dev\)/,
    );
    expect(message).not.toContain(developmentApiKey);
  });

  it('opens the API with the development key alone in development when API_KEYS is unset, and with none in production', () => {
    const development = loadConfig({ BANKFLOW_ENV: 'development' });
    expect(development.api.keys).toEqual([developmentApiKeyEntry]);
    const configured = mintApiKey('mine');
    expect(loadConfig({ BANKFLOW_ENV: 'development', API_KEYS: configured.configEntry }).api.keys).toEqual([
      configured.entry,
    ]);
    expect(loadConfig(production()).api.keys).toEqual([]);
  });

  it('does not start the API in production without API_KEYS, naming the variable', async () => {
    const config = loadConfig(production());
    const refused = startApiServer(
      config,
      config.temporal,
      { ...config.bank, baseUrl: 'https://bank.example.com' },
      pino({ level: 'silent' }),
    );
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      /API_KEYS: is required to start the merchant API: mint a key with bankflow api-key create <name>/,
    );
  });

  it('takes a rate limit of whole requests per minute', () => {
    expect(loadConfig({ BANKFLOW_ENV: 'development' }).api.rateLimitPerMinute).toBe(600);
    expect(problemsOf({ BANKFLOW_ENV: 'development', API_RATE_LIMIT_PER_MINUTE: '0' })).toMatch(
      /API_RATE_LIMIT_PER_MINUTE: must be a whole number of requests per minute, at least 1/,
    );
  });
});
