import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  defaultTestServerCacheDir,
  findTimeSkippingServer,
  TimeSkippingServerUnavailableError,
} from '../setup/time-skipping-server.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('bankflow-test-server-');
const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

function script(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

/** Plays Maven's part: copies "the dependencies" (one jar) into -DoutputDirectory, relative to its folder. */
const fakeMvn = (dir: string) =>
  script(
    dir,
    'mvn',
    [
      '#!/bin/sh',
      'for arg in "$@"; do case "$arg" in -DoutputDirectory=*) out="${arg#-DoutputDirectory=}";; esac; done',
      'mkdir -p "$out" && echo jar > "$out/temporal-test-server.jar"',
      '',
    ].join('\n'),
  );

/**
 * Plays java's part: with -XX:ArchiveClassesAtExit it serves the port it is given until SIGTERM and then
 * writes the archive, as the JVM does; otherwise it prints its arguments and folder.
 */
const fakeJava = (dir: string) =>
  script(
    dir,
    'java',
    `#!${process.execPath}
const args = process.argv.slice(2);
const archive = args.find((arg) => arg.startsWith('-XX:ArchiveClassesAtExit='));
if (!archive) {
  console.log(JSON.stringify({ args, cwd: process.cwd() }));
  process.exit(0);
}
const server = require('node:net').createServer((socket) => socket.destroy());
server.listen(Number(args.at(-1)), '127.0.0.1');
process.on('SIGTERM', () => {
  require('node:fs').writeFileSync(archive.split('=')[1], 'classes');
  process.exit(143);
});
`,
  );

describe('finding the time-skipping test server', () => {
  it('prefers TEMPORAL_TEST_SERVER over the cache', async () => {
    const explicit = script(tmp(), 'server', '#!/bin/sh\n');
    const cacheDir = path.join(tmp(), 'cache');
    script(cacheDir, 'temporal-test-server', '#!/bin/sh\n');
    await expect(findTimeSkippingServer({ explicitPath: explicit, cacheDir })).resolves.toBe(explicit);
  });

  it('refuses a TEMPORAL_TEST_SERVER that is not executable, saying what to install', async () => {
    const error = await findTimeSkippingServer({ explicitPath: path.join(tmp(), 'nothing') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeSkippingServerUnavailableError);
    expect((error as Error).message).toMatch(/TEMPORAL_TEST_SERVER=.*nothing is not an executable/);
    expect((error as Error).message).toContain('apt-get install openjdk-17-jdk-headless maven');
  });

  it('reuses the cached server without looking for java or Maven', async () => {
    const cacheDir = path.join(tmp(), 'cache');
    const cached = script(cacheDir, 'temporal-test-server', '#!/bin/sh\n');
    await expect(findTimeSkippingServer({ cacheDir, pathEnv: '', allowBuild: false })).resolves.toBe(cached);
  });

  it('says where it looked when nothing is cached and provisioning is not allowed', async () => {
    const cacheDir = path.join(tmp(), 'empty');
    await expect(findTimeSkippingServer({ cacheDir, allowBuild: false })).rejects.toThrow(
      `it is not cached in ${cacheDir}`,
    );
  });

  it('names what is missing to provision it', async () => {
    const onlyMvn = path.dirname(fakeMvn(tmp()));
    const cacheDir = path.join(tmp(), 'cache');
    const noJava = await findTimeSkippingServer({ cacheDir, pathEnv: onlyMvn, progress: silent }).catch(
      (e: unknown) => e,
    );
    expect(noJava).toBeInstanceOf(TimeSkippingServerUnavailableError);
    expect((noJava as Error).message).toContain('java is not on PATH to provision it');
    await expect(findTimeSkippingServer({ cacheDir, pathEnv: '', progress: silent })).rejects.toThrow(
      'java and mvn are not on PATH',
    );
  });

  it('provisions once into the cache when two runs ask at the same time, with a wrapper that passes the arguments on', async () => {
    const bin = tmp();
    fakeMvn(bin);
    const java = fakeJava(bin);
    const cacheDir = path.join(tmp(), 'cache', 'temporal-test-server-x');
    const options = { cacheDir, pathEnv: `${bin}:/usr/bin:/bin`, progress: silent };
    const [first, second] = await Promise.all([
      findTimeSkippingServer(options),
      findTimeSkippingServer(options),
    ]);
    expect(first).toBe(path.join(cacheDir, 'temporal-test-server'));
    expect(second).toBe(first);
    expect(readdirSync(path.dirname(cacheDir))).toEqual(['temporal-test-server-x']);
    expect(readdirSync(cacheDir).sort()).toEqual(['classes.jsa', 'lib', 'pom.xml', 'temporal-test-server']);
    expect(readFileSync(path.join(cacheDir, 'pom.xml'), 'utf8')).toContain(
      '<artifactId>temporal-test-server</artifactId>',
    );

    const started = spawnSync(first, ['7233', '--enable-time-skipping'], { encoding: 'utf8' });
    expect(started.status).toBe(0);
    const { args, cwd } = JSON.parse(started.stdout) as { args: string[]; cwd: string };
    expect(cwd).toBe(cacheDir);
    expect(args).toEqual([
      '-XX:SharedArchiveFile=classes.jsa',
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-cp',
      'lib/*',
      'io.temporal.testserver.TestServer',
      '7233',
      '--enable-time-skipping',
    ]);
    expect(readFileSync(first, 'utf8')).toContain(`exec '${java}'`);
  });

  it('keeps its cache outside the repository, per server version', () => {
    expect(defaultTestServerCacheDir({ XDG_CACHE_HOME: '/var/cache/x' })).toBe(
      '/var/cache/x/bankflow/temporal-test-server-1.31.0',
    );
    expect(defaultTestServerCacheDir({})).toMatch(/\.cache\/bankflow\/temporal-test-server-1\.31\.0$/);
  });
});
