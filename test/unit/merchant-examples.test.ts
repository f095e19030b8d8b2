import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadDevelopmentConfig } from '../../devkit/config.js';
import { developmentApiKey } from '../../src/api/keys.js';
import {
  maxSignatureHeaderLength,
  maxSignatures,
  signatureHeader,
} from '../../src/notifications/signature.js';

const script = readFileSync('examples/python/merchant_backend.py', 'utf8');
const readme = readFileSync('examples/python/README.md', 'utf8');
const merchantApi = readFileSync('docs/merchant-api.md', 'utf8');

/** Each ```sh block of `text`, continuation lines joined. */
const shellBlocks = (text: string) =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => (match[1] ?? '').replace(/\\\n\s*/g, ''));

/** The `NAME=value` assignments a one-line command starts with, and the command after them. */
function assignments(line: string): { env: Record<string, string>; command: string } {
  const env: Record<string, string> = {};
  let rest = line.trim();
  for (
    let match = /^([A-Z_]+)=('[^']*'|\S+)\s+/.exec(rest);
    match;
    match = /^([A-Z_]+)=('[^']*'|\S+)\s+/.exec(rest)
  ) {
    env[match[1] ?? ''] = (match[2] ?? '').replace(/^'|'$/g, '');
    rest = rest.slice(match[0].length);
  }
  return { env, command: rest };
}

/** What the Python example reads: the variables it needs (os.environ[...]), and those it may (.get). */
const required = [...script.matchAll(/os\.environ\["(\w+)"\]/g)].map((match) => match[1]);
const optional = [...script.matchAll(/os\.environ\.get\("(\w+)"/g)].map((match) => match[1]);

/** What `npm start` runs with no variable set: its merchant API and sandbox addresses. */
const npmStart = loadDevelopmentConfig('dev', {});

describe("the Python merchant example's README", () => {
  const [start, example] = shellBlocks(readme).map((block) => assignments(block.trim()));

  it('starts npm start with notifications to the port the example listens on, signed with the secret it checks', () => {
    expect(start?.command).toBe('npm start');
    expect(example?.command).toBe('python3 examples/python/merchant_backend.py');
    const configured = loadDevelopmentConfig('dev', start?.env ?? {});
    expect(configured.notifications.endpoints).toEqual([
      `http://127.0.0.1:${example?.env.NOTIFY_PORT}/notifications`,
    ]);
    expect(configured.notifications.secrets).toEqual([example?.env.NOTIFY_SECRET]);
  });

  it("runs the example with every variable it needs, npm start's addresses and development key", () => {
    const env = example?.env ?? {};
    expect(required.filter((name) => name && !(name in env))).toEqual([]);
    expect(Object.keys(env).filter((name) => !required.includes(name) && !optional.includes(name))).toEqual(
      [],
    );
    expect(env.BANKFLOW_API_URL).toBe(`http://${npmStart.api.host}:${npmStart.api.port}`);
    expect(env.SANDBOX_URL).toBe(`http://${npmStart.sandbox.host}:${npmStart.sandbox.port}`);
    expect(env.BANKFLOW_API_KEY).toBe(developmentApiKey);
    // The example's own help gives the same addresses.
    expect(script).toContain(`e.g. ${env.BANKFLOW_API_URL} (as \`npm start\` runs it)`);
    expect(script).toContain(`e.g. ${env.SANDBOX_URL}`);
  });
});

describe("docs/merchant-api.md's curl walkthrough", () => {
  const start = merchantApi.indexOf('\n## The whole journey with curl\n');
  const section = merchantApi.slice(start, merchantApi.indexOf('\n## ', start + 1));

  it("reads the sandbox token by the name the Python example and npm start's sandbox read it", () => {
    const used = new Set(
      [
        ...shellBlocks(section)
          .join('\n')
          .matchAll(/\$\{?([A-Z][A-Z_]+)/g),
      ].map((m) => m[1]),
    );
    expect([...used].sort()).toEqual([
      'BANKFLOW_API_KEY',
      'BANKFLOW_API_URL',
      'SANDBOX_CONTROL_TOKEN',
      'SANDBOX_URL',
    ]);
    expect(required).toEqual(expect.arrayContaining([...used]));
    expect(loadDevelopmentConfig('dev', { SANDBOX_CONTROL_TOKEN: 'chosen' }).sandbox.controlToken).toBe(
      'chosen',
    );
    // Each variable the walkthrough sets is named where the text says what to set.
    for (const name of used) expect(section).toContain(`\`${name}\` (`);
  });

  it('sends its reader to the README that runs the Python example', () => {
    expect(section).toContain('(../examples/python/README.md)');
  });
});

describe("the Python merchant example's signature check", () => {
  const secret = 'whsec_example_secret_for_the_check';
  const body = '{"id":"evt-1"}';
  const now = 1_800_000_000;
  const valid = signatureHeader(body, [secret], now);
  const forgedV1 = `v1=${'0'.repeat(64)}`;

  /** What the example's `signature_is_valid` answers for each header, run by python3. */
  function pythonChecks(headers: string[]): boolean[] {
    const program = [
      'import importlib.util, json, sys',
      "spec = importlib.util.spec_from_file_location('merchant', 'examples/python/merchant_backend.py')",
      'merchant = importlib.util.module_from_spec(spec)',
      'spec.loader.exec_module(merchant)',
      'headers, body, secret, now = json.loads(sys.stdin.read())',
      'print(json.dumps([merchant.signature_is_valid(h, body.encode(), secret, now) for h in headers]))',
    ].join('\n');
    const env = {
      ...process.env,
      BANKFLOW_API_URL: 'http://127.0.0.1:1',
      BANKFLOW_API_KEY: 'unused',
      SANDBOX_URL: 'http://127.0.0.1:1',
      SANDBOX_CONTROL_TOKEN: 'unused',
    };
    const output = execFileSync('python3', ['-c', program], {
      env,
      input: JSON.stringify([headers, body, secret, now]),
      encoding: 'utf8',
    });
    return JSON.parse(output) as boolean[];
  }

  it("accepts bankflow's header and refuses a forged one before any HMAC, as bankflow's own check does", () => {
    const nineV1 = [valid, ...Array.from({ length: maxSignatures }, () => forgedV1)].join(',');
    const tooLong = `${valid},x=${'a'.repeat(maxSignatureHeaderLength)}`;
    expect(pythonChecks([valid, nineV1, tooLong, `t=${now},${forgedV1}`])).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
