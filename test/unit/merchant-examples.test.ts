import { readFileSync } from 'node:fs';
import { loadDevelopmentConfig } from '../../devkit/config.js';
import { developmentApiKey } from '../../src/api/keys.js';

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
