import { ConfigError, loadConfig } from '../../src/config.js';
import { loadDevelopmentConfig } from '../../devkit/config.js';

const development = { BANKFLOW_ENV: 'development' };

describe("the checkout's public address and the receiver's internal port", () => {
  it('reads CHECKOUT_PUBLIC_URL, unset meaning the local address, and refuses one that is not http(s)', () => {
    const dev = (env: Record<string, string>) => loadDevelopmentConfig('dev', { ...development, ...env });
    expect(dev({}).checkout.publicUrl).toBeUndefined();
    expect(dev({ CHECKOUT_PUBLIC_URL: 'https://shop.example/' }).checkout.publicUrl).toBe(
      'https://shop.example/',
    );
    for (const value of ['shop.example', 'javascript:alert(1)', 'ftp://shop.example/']) {
      expect(() => dev({ CHECKOUT_PUBLIC_URL: value })).toThrow(ConfigError);
      expect(() => dev({ CHECKOUT_PUBLIC_URL: value })).toThrow(/CHECKOUT_PUBLIC_URL: /);
    }
  });

  it('serves the receiver internally on METRICS_HOST:WEBHOOK_INTERNAL_PORT only when the port is set', () => {
    expect(loadConfig(development).webhooks.internal).toBeUndefined();
    expect(
      loadConfig({ ...development, WEBHOOK_INTERNAL_PORT: '9466', METRICS_HOST: '0.0.0.0' }).webhooks
        .internal,
    ).toEqual({ host: '0.0.0.0', port: 9466 });
    expect(() => loadConfig({ ...development, WEBHOOK_INTERNAL_PORT: 'metrics' })).toThrow(
      /WEBHOOK_INTERNAL_PORT: /,
    );
  });
});
