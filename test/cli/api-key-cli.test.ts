import { apiKeyName, developmentApiKeyEntry } from '../../src/api/keys.js';
import { loadConfig } from '../../src/config.js';
import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { runCli } from '../helpers/cli.js';
import { runCliWithoutEnvironment } from '../helpers/cli-without-env.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';

/** The key and the API_KEYS entry a mint printed, each on a line of its own, indented. */
const printed = (stdout: string, prefix: string, name: string) => ({
  key: new RegExp(`^ {2}(${prefix}[\\w-]{43})$`, 'm').exec(stdout)?.[1] ?? '',
  entry: new RegExp(`^ {2}(?:API_KEYS=)?(${name}:[0-9a-f]{64})(?: npm start)?$`, 'm').exec(stdout)?.[1] ?? '',
});

describe('bankflow api-key create', () => {
  it(
    'mints a bf_dev_ key in development and prints the API_KEYS setting npm start takes it by',
    async () => {
      const minted = await runCli(['api-key', 'create', 'local-backend'], { BANKFLOW_ENV: 'development' });
      expect(minted).toMatchObject({ code: 0, stderr: '' });
      const { key, entry } = printed(minted.stdout, 'bf_dev_', 'local-backend');
      expect(key).not.toBe('');
      expect(minted.stdout).toContain(`\n  API_KEYS=${entry} npm start\n`);
      expect(minted.stdout).not.toContain('bf_live_');
      // npm start's configuration takes the entry, and it opens the API to that key alone.
      const keys = loadConfig({ BANKFLOW_ENV: 'development', API_KEYS: entry }).api.keys;
      expect(keys).not.toContainEqual(developmentApiKeyEntry);
      expect(apiKeyName(keys, key)).toBe('local-backend');
    },
    cliTestTimeoutMs,
  );

  it(
    "mints production's bf_live_ key when BANKFLOW_ENV is production or unset, and production still refuses the public development key",
    async () => {
      for (const minted of [
        await runCli(['api-key', 'create', 'checkout-backend'], { BANKFLOW_ENV: 'production' }),
        await runCliWithoutEnvironment(['api-key', 'create', 'checkout-backend']),
      ]) {
        expect(minted).toMatchObject({ code: 0, stderr: '' });
        const { key, entry } = printed(minted.stdout, 'bf_live_', 'checkout-backend');
        expect(key).not.toBe('');
        expect(minted.stdout).toContain(`\n  ${entry}\n`);
        expect(minted.stdout).not.toMatch(/bf_dev_|npm start/);
        const production = { ...productionEnv(), TEMPORAL_TLS: 'true', API_KEYS: entry };
        expect(apiKeyName(loadConfig(production).api.keys, key)).toBe('checkout-backend');
      }
      expect(
        problemsOf({
          ...productionEnv(),
          TEMPORAL_TLS: 'true',
          API_KEYS: `dev:${developmentApiKeyEntry.sha256}`,
        }),
      ).toMatch(/API_KEYS: holds the public development key/);
    },
    cliTestTimeoutMs,
  );
});
