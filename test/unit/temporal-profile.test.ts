import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('bankflow-profile-');

/** A temporal.toml in a fresh directory, and a PEM-shaped file next to it for each name in `files`. */
function configFile(toml: string, ...files: string[]): { file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, 'temporal.toml');
  writeFileSync(file, toml);
  for (const name of files) writeFileSync(path.join(dir, name), `-----BEGIN ${name}-----\n`);
  return { file, dir };
}

const development = { BANKFLOW_ENV: 'development' };

const shared = `
[profile.default]
address = "localhost:7233"

[profile.staging]
address = "staging.example.com:7233"
namespace = "payments-staging"

[profile.staging.tls]
server_name = "staging.internal"

[profile.staging.grpc_meta]
x-tenant = "merchant-7"
`;

describe("the Temporal connection, read as Temporal's CLI reads it", () => {
  it('reads the TEMPORAL_* variables alone when there is no temporal.toml', () => {
    const { temporal } = loadConfig({
      ...development,
      HOME: tempDir(),
      TEMPORAL_ADDRESS: 'temporal.example.com:7233',
      TEMPORAL_NAMESPACE: 'payments',
      TEMPORAL_GRPC_META_X_TENANT: 'merchant-7',
    });
    expect(temporal).toMatchObject({
      address: 'temporal.example.com:7233',
      namespace: 'payments',
      tls: false,
      apiKey: undefined,
      metadata: { 'x-tenant': 'merchant-7' },
      profileSource: 'the TEMPORAL_* variables alone',
    });
  });

  it('an empty variable is unset, as for every bankflow variable', () => {
    const { temporal } = loadConfig({
      ...development,
      HOME: tempDir(),
      TEMPORAL_ADDRESS: '',
      TEMPORAL_TLS: '',
    });
    expect(temporal).toMatchObject({ address: undefined, namespace: 'default', tls: false });
  });

  it('reads the profile TEMPORAL_PROFILE names from TEMPORAL_CONFIG_FILE, and the default profile otherwise', () => {
    const { file } = configFile(shared);
    const staging = loadConfig({ ...development, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' });
    expect(staging.temporal).toMatchObject({
      address: 'staging.example.com:7233',
      namespace: 'payments-staging',
      tls: { serverNameOverride: 'staging.internal' },
      metadata: { 'x-tenant': 'merchant-7' },
      profileSource: `profile "staging" of ${file}`,
    });
    expect(loadConfig({ ...development, TEMPORAL_CONFIG_FILE: file }).temporal).toMatchObject({
      address: 'localhost:7233',
      namespace: 'default',
      tls: false,
    });
    const empty = configFile('# profiles come later\n').file;
    expect(loadConfig({ ...development, TEMPORAL_CONFIG_FILE: empty }).temporal.profileSource).toBe(
      'the TEMPORAL_* variables alone',
    );
  });

  it("finds temporal.toml where Temporal's CLI keeps it: temporalio/ in the user's config directory", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'temporalio'));
    writeFileSync(path.join(dir, 'temporalio', 'temporal.toml'), shared);
    expect(
      loadConfig({ ...development, XDG_CONFIG_HOME: dir, TEMPORAL_PROFILE: 'staging' }).temporal.address,
    ).toBe('staging.example.com:7233');
  });

  it('lets a TEMPORAL_* variable override the profile, entry by entry', () => {
    const { file } = configFile(shared);
    const { temporal } = loadConfig({
      ...development,
      TEMPORAL_CONFIG_FILE: file,
      TEMPORAL_PROFILE: 'staging',
      TEMPORAL_NAMESPACE: 'payments-canary',
      TEMPORAL_GRPC_META_X_TENANT: '',
    });
    expect(temporal).toMatchObject({
      address: 'staging.example.com:7233',
      namespace: 'payments-canary',
      tls: { serverNameOverride: 'staging.internal' },
      metadata: {},
    });
  });

  it('names an unknown profile, the file and the profiles it holds', () => {
    const { file } = configFile(shared);
    expect(problemsOf({ ...development, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' })).toContain(
      `TEMPORAL_PROFILE: names profile "prod", which ${file} does not hold (it holds "default", "staging") (got "prod")`,
    );
    expect(problemsOf({ ...development, HOME: tempDir(), TEMPORAL_PROFILE: 'prod' })).toMatch(
      /TEMPORAL_PROFILE: names profile "prod", but there is no temporal.toml \(set TEMPORAL_CONFIG_FILE/,
    );
  });

  it('names a missing or malformed temporal.toml, without quoting its lines', () => {
    const apiKey = `key-${randomBytes(12).toString('hex')}`;
    const { file } = configFile(`[profile.default]\napi_key = "${apiKey}\n`);
    const malformed = problemsOf({ ...development, TEMPORAL_CONFIG_FILE: file });
    expect(malformed).toMatch(
      new RegExp(
        `TEMPORAL_CONFIG_FILE: ${file} is not a valid temporal.toml at line 2, column \\d+: Invalid TOML document`,
      ),
    );
    expect(malformed).not.toContain(apiKey);
    const missing = path.join(tempDir(), 'absent.toml');
    expect(problemsOf({ ...development, TEMPORAL_CONFIG_FILE: missing })).toContain(
      `TEMPORAL_CONFIG_FILE: cannot read ${missing} (ENOENT)`,
    );
  });

  it('refuses a client certificate without its key, and the key without its certificate, naming where each was set', () => {
    const { file, dir } = configFile(
      `[profile.default.tls]\nclient_cert_path = "${path.join(tempDir(), 'x')}"\n`,
      'client.pem',
      'client.key',
    );
    expect(
      problemsOf({
        ...development,
        HOME: tempDir(),
        TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(dir, 'client.pem'),
      }),
    ).toMatch(
      /TEMPORAL_TLS_CLIENT_CERT_PATH: is set without the client key \(mTLS needs both\): set TEMPORAL_TLS_CLIENT_KEY_PATH/,
    );
    expect(
      problemsOf({ ...development, HOME: tempDir(), TEMPORAL_TLS_CLIENT_KEY_DATA: 'key-material-not-shown' }),
    ).toMatch(
      /TEMPORAL_TLS_CLIENT_KEY_DATA: is set without the client certificate .*\(got a secret of 22 characters, not shown\)/,
    );
    const withKey = loadConfig({
      ...development,
      HOME: tempDir(),
      TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(dir, 'client.pem'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: path.join(dir, 'client.key'),
    }).temporal.tls;
    expect(withKey && withKey.clientCertPair?.crt.toString()).toBe('-----BEGIN client.pem-----\n');
    expect(problemsOf({ ...development, TEMPORAL_CONFIG_FILE: file })).toMatch(
      new RegExp(`tls.client_cert_path of profile "default" of ${file}: cannot read \\S+ \\(ENOENT\\)`),
    );
  });

  it('names an unreadable certificate path by its variable', () => {
    const missing = path.join(tempDir(), 'ca.pem');
    expect(
      problemsOf({ ...development, HOME: tempDir(), TEMPORAL_TLS_SERVER_CA_CERT_PATH: missing }),
    ).toContain(`TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read ${missing} (ENOENT)`);
  });

  it('refuses a flag Temporal would read as false, and host verification the SDK cannot skip', () => {
    expect(problemsOf({ ...development, HOME: tempDir(), TEMPORAL_TLS: 'yes' })).toMatch(
      /TEMPORAL_TLS: must be true, false, 1 or 0, the values Temporal's tools read \(got "yes"\)/,
    );
    expect(
      problemsOf({
        ...development,
        HOME: tempDir(),
        TEMPORAL_TLS: 'true',
        TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: 'true',
      }),
    ).toMatch(/TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: cannot be honoured by bankflow/);
  });

  it('turns TLS on for an API key, as envconfig decides, unless TEMPORAL_TLS says false', () => {
    const apiKey = randomBytes(24).toString('base64');
    const home = tempDir();
    expect(loadConfig({ ...development, HOME: home, TEMPORAL_API_KEY: apiKey }).temporal).toMatchObject({
      apiKey,
      tls: {},
    });
    expect(
      loadConfig({ ...development, HOME: home, TEMPORAL_API_KEY: apiKey, TEMPORAL_TLS: 'false' }).temporal
        .tls,
    ).toBe(false);
    const { file } = configFile(
      `[profile.cloud]\naddress = "ns.a1b2c.tmprl.cloud:7233"\napi_key = "${apiKey}"\n`,
    );
    expect(
      loadConfig({ ...development, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud' }).temporal,
    ).toMatchObject({ apiKey, tls: {} });
  });
});

describe('production and the Temporal profile', () => {
  const production = productionEnv();

  it('refuses a plaintext profile, naming the variables and the profile, unless TEMPORAL_PLAINTEXT_ALLOWED', () => {
    const { file } = configFile(shared);
    const refusal = problemsOf({ ...production, TEMPORAL_CONFIG_FILE: file });
    expect(refusal).toMatch(
      /TEMPORAL_TLS: is off in the Temporal profile .*set TEMPORAL_TLS=true .*TEMPORAL_API_KEY.*TEMPORAL_PLAINTEXT_ALLOWED=true/,
    );
    expect(refusal).toContain(`(profile "default" of ${file})`);
    expect(
      loadConfig({ ...production, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PLAINTEXT_ALLOWED: 'true' }).env,
    ).toBe('production');
    expect(
      problemsOf({
        ...production,
        HOME: tempDir(),
        TEMPORAL_API_KEY: randomBytes(24).toString('base64'),
        TEMPORAL_TLS: 'false',
      }),
    ).toMatch(/TEMPORAL_TLS: is off in the Temporal profile/);
  });

  it('accepts TLS from the profile, an API key or a server CA', () => {
    const { file, dir } = configFile(shared, 'ca.pem');
    expect(loadConfig({ ...production, TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' }).env).toBe(
      'production',
    );
    const home = tempDir();
    expect(
      loadConfig({ ...production, HOME: home, TEMPORAL_API_KEY: randomBytes(24).toString('base64') }).env,
    ).toBe('production');
    expect(
      loadConfig({ ...production, HOME: home, TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(dir, 'ca.pem') })
        .temporal.tls,
    ).toMatchObject({ serverRootCACertificate: Buffer.from('-----BEGIN ca.pem-----\n') });
  });

  it("refuses a weak API key from the profile's file too, never showing it", () => {
    const apiKey = 'short-key-9';
    const { file } = configFile(`[profile.default]\napi_key = "${apiKey}"\n`);
    const refusal = problemsOf({ ...production, TEMPORAL_CONFIG_FILE: file });
    expect(refusal).toMatch(/TEMPORAL_API_KEY: must be at least 16 characters/);
    expect(refusal).not.toContain(apiKey);
  });
});
