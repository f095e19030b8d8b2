import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';

const strongProduction = { ...productionEnv(), TEMPORAL_TLS: 'true' };
const strongSecret = () => randomBytes(32).toString('base64');

describe('merchant notification settings', () => {
  it('reads the endpoints and the secrets, current first; none configured sends nothing', () => {
    const secret = strongSecret();
    const previous = strongSecret();
    expect(
      loadConfig({
        ...strongProduction,
        NOTIFY_ENDPOINTS: 'https://shop.example/bankflow, http://127.0.0.1:8080/hooks',
        NOTIFY_SECRET: secret,
        NOTIFY_SECRET_PREVIOUS: previous,
      }).notifications,
    ).toEqual({
      endpoints: ['https://shop.example/bankflow', 'http://127.0.0.1:8080/hooks'],
      secrets: [secret, previous],
    });
    expect(loadConfig(strongProduction).notifications).toEqual({ endpoints: [], secrets: [] });
  });

  it('refuses an endpoint that is not an http(s) URL, by its position', () => {
    expect(
      problemsOf({ BANKFLOW_ENV: 'development', NOTIFY_ENDPOINTS: 'https://a.example,ftp://b.example' }),
    ).toMatch(/NOTIFY_ENDPOINTS: entry 2 must be an http:\/\/ or https:\/\/ URL/);
  });

  it('refuses endpoints without a secret in every environment: nothing goes out unsigned', () => {
    for (const env of [strongProduction, { BANKFLOW_ENV: 'development' }])
      expect(problemsOf({ ...env, NOTIFY_ENDPOINTS: 'http://localhost:9000/n' })).toMatch(
        /NOTIFY_SECRET: is required when NOTIFY_ENDPOINTS is set/,
      );
  });

  it('refuses plain http:// to another host in production, naming the entry, and keeps it for loopback', () => {
    const secret = strongSecret();
    const problems = problemsOf({
      ...strongProduction,
      NOTIFY_ENDPOINTS: 'https://shop.example/n,http://shop.example/n,http://localhost:1/n,http://[::1]:2/n',
      NOTIFY_SECRET: secret,
    });
    expect(problems).toMatch(
      /NOTIFY_ENDPOINTS: must be https:\/\/ URLs when BANKFLOW_ENV=production.*\(entry 2\)/,
    );
    expect(problems).not.toContain(secret);
    expect(
      loadConfig({
        BANKFLOW_ENV: 'development',
        NOTIFY_ENDPOINTS: 'http://shop.example/n',
        NOTIFY_SECRET: 'dev',
      }).notifications.endpoints,
    ).toEqual(['http://shop.example/n']);
  });

  it('refuses weak signing secrets in production without printing them', () => {
    const weak = 'ab'.repeat(20);
    const problems = problemsOf({
      ...strongProduction,
      NOTIFY_ENDPOINTS: 'https://shop.example/n',
      NOTIFY_SECRET: 'short-secret',
      NOTIFY_SECRET_PREVIOUS: weak,
    });
    expect(problems).toMatch(/NOTIFY_SECRET: must be at least 32 characters, of at least 8 different ones/);
    expect(problems).toMatch(/NOTIFY_SECRET_PREVIOUS: must be at least 32 characters/);
    expect(problems).not.toContain('short-secret');
    expect(problems).not.toContain(weak);
  });

  it('keeps the test speedup to development: production refuses NOTIFY_TEST_SPEEDUP', () => {
    const notify = { NOTIFY_ENDPOINTS: 'http://127.0.0.1:9000/n', NOTIFY_SECRET: strongSecret() };
    expect(
      loadConfig({ BANKFLOW_ENV: 'development', ...notify, NOTIFY_TEST_SPEEDUP: '10' }).notifications.speedup,
    ).toBe(10);
    expect(problemsOf({ ...strongProduction, ...notify, NOTIFY_TEST_SPEEDUP: '10' })).toMatch(
      /NOTIFY_TEST_SPEEDUP: is for bankflow's own tests only and is refused when BANKFLOW_ENV=production/,
    );
    expect(problemsOf({ BANKFLOW_ENV: 'development', ...notify, NOTIFY_TEST_SPEEDUP: '0' })).toMatch(
      /NOTIFY_TEST_SPEEDUP/,
    );
  });
});
