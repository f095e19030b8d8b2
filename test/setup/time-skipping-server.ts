import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import proto from '@temporalio/proto';
import { bankflowCacheDir, executablesOnPath, isExecutable } from '../../src/temporal/cli-binary.js';
import { freePort } from '../helpers/cli.js';

/**
 * Temporal's time-skipping test server, the one the TypeScript SDK's `createTimeSkipping` downloads from the
 * web by default, comes from Maven Central here: io.temporal:temporal-test-server, run with `java`.
 */
export const testServerVersion = '1.31.0';
const mainClass = 'io.temporal.testserver.TestServer';
const dependencyPlugin = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const wrapperName = 'temporal-test-server';
const classArchive = 'classes.jsa';
/**
 * The SDK gives the server 5 s to answer before giving up, and a cold JVM took 3.5 s on an idle 2-core
 * machine: a class-data archive of the server's start-up plus the client compiler only and the serial
 * collector bring it to about 0.5 s.
 */
const jvmFlags = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export class TimeSkippingServerUnavailableError extends Error {
  constructor(reason: string) {
    super(
      [
        `No usable Temporal time-skipping test server: ${reason}`,
        'It is provisioned from Maven Central with a JDK (17 or later) and Maven; install them, then run again:',
        '  - Debian/Ubuntu:  apt-get install openjdk-17-jdk-headless maven',
        '  - Homebrew:       brew install openjdk maven',
        '  - Or point TEMPORAL_TEST_SERVER at an existing time-skipping test server executable.',
      ].join('\n'),
    );
    this.name = 'TimeSkippingServerUnavailableError';
  }
}

export interface FindTimeSkippingServerOptions {
  /** An explicit executable (TEMPORAL_TEST_SERVER); wins over the cache. */
  explicitPath?: string | undefined;
  /** Where the provisioned server is cached. */
  cacheDir?: string;
  /** Where provisioning progress is written. */
  progress?: NodeJS.WritableStream;
  /** Set to false to only look, never provision. */
  allowBuild?: boolean;
  /** Directories searched for `java` and `mvn`; the process's PATH by default. */
  pathEnv?: string | undefined;
}

export function defaultTestServerCacheDir(env: { XDG_CACHE_HOME?: string | undefined } = {}): string {
  return path.join(bankflowCacheDir(env), `temporal-test-server-${testServerVersion}`);
}

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bankflow</groupId>
  <artifactId>temporal-test-server-classpath</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${testServerVersion}</version>
    </dependency>
    <!-- The server logs through SLF4J and no binding comes with it: this one keeps it quiet, as it is without. -->
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>1.7.36</version>
    </dependency>
  </dependencies>
</project>
`;

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Execs java from the server's own folder: the class-data archive records the classpath as given, and a
 * relative one stays valid once the folder is renamed into the cache. The SDK passes `<port>` and its extra
 * arguments.
 */
function wrapperScript(java: string, withArchive: boolean): string {
  const flags = [...(withArchive ? [`-XX:SharedArchiveFile=${classArchive}`] : []), ...jvmFlags];
  return [
    '#!/bin/sh',
    `# Temporal's time-skipping test server ${testServerVersion} (io.temporal:temporal-test-server), provisioned by bankflow's tests.`,
    'cd "$(dirname "$0")" || exit 1',
    `exec ${shellQuote(java)} ${flags.join(' ')} -cp 'lib/*' ${mainClass} "$@"`,
    '',
  ].join('\n');
}

function run(
  command: string,
  args: string[],
  cwd: string,
  pathEnv: string | undefined,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: pathEnv ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

const warmUpKey = defineSearchAttributeKey('WarmUp', SearchAttributeType.KEYWORD);

/**
 * The calls a test makes first: made once while the archive is recorded, their classes load from it ever
 * after.
 */
async function exercise(port: number): Promise<void> {
  const connection = await Connection.connect({ address: `127.0.0.1:${port}`, connectTimeout: '2s' });
  try {
    await connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: {
        [warmUpKey.name]: proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      },
    });
    const client = new Client({ connection });
    const handle = await client.workflow.start('warmUp', {
      workflowId: 'warm-up',
      taskQueue: 'warm-up',
      memo: { warm: true },
      typedSearchAttributes: [{ key: warmUpKey, value: 'yes' }],
    });
    await handle.signal('warmUp');
    await handle.describe();
    await handle.fetchHistory();
    await handle.terminate();
  } finally {
    await connection.close();
  }
}

/**
 * Starts the server once with -XX:ArchiveClassesAtExit and makes a test's first calls, so every later start
 * maps those classes from the archive: the first workflow start on a fresh server took over a second without
 * it.
 */
async function archiveServerClasses(dir: string, java: string): Promise<boolean> {
  const port = await freePort();
  const child = spawn(
    java,
    [`-XX:ArchiveClassesAtExit=${classArchive}`, ...jvmFlags, '-cp', 'lib/*', mainClass, String(port)],
    { cwd: dir, stdio: 'ignore' },
  );
  const deadline = Date.now() + 60_000;
  while (child.exitCode === null && Date.now() < deadline && !(await accepts(port))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Whatever ran is archived; an archive of the start-up alone still helps.
  await exercise(port).catch(() => undefined);
  child.kill('SIGTERM');
  await exited(child);
  return existsSync(path.join(dir, classArchive));
}

async function provision(
  cacheDir: string,
  progress: NodeJS.WritableStream,
  pathEnv: string | undefined,
): Promise<void> {
  const java = executablesOnPath('java', pathEnv)[0];
  const mvn = executablesOnPath('mvn', pathEnv)[0];
  const missing = [...(java ? [] : ['java']), ...(mvn ? [] : ['mvn'])];
  if (!java || !mvn) {
    throw new TimeSkippingServerUnavailableError(
      `it is not cached in ${cacheDir}, and ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not on PATH to provision it`,
    );
  }
  mkdirSync(path.dirname(cacheDir), { recursive: true });
  // Built beside its final place and renamed into it, so two test runs provisioning at once never see half of
  // it.
  const staging = mkdtempSync(`${cacheDir}.partial-`);
  try {
    progress.write(
      `Fetching Temporal's time-skipping test server ${testServerVersion} with Maven into ${cacheDir} (first time only)...\n`,
    );
    writeFileSync(path.join(staging, 'pom.xml'), pom);
    const fetched = await run(
      mvn,
      ['-q', '-B', '-Dstyle.color=never', `${dependencyPlugin}:copy-dependencies`, '-DoutputDirectory=lib'],
      staging,
      pathEnv,
    );
    if (fetched.code !== 0) {
      throw new TimeSkippingServerUnavailableError(
        `mvn could not fetch io.temporal:temporal-test-server:${testServerVersion} (exit code ${fetched.code}):\n${fetched.output.trim().split('\n').slice(-15).join('\n')}`,
      );
    }
    const wrapper = path.join(staging, wrapperName);
    writeFileSync(wrapper, wrapperScript(java, await archiveServerClasses(staging, java)));
    chmodSync(wrapper, 0o755);
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, cacheDir);
    } catch (error) {
      // Another run renamed its copy in first; theirs is as good as ours.
      if (!isExecutable(path.join(cacheDir, wrapperName))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Finds Temporal's time-skipping test server: TEMPORAL_TEST_SERVER, else the cached one, else provisions it
 * with Maven into the cache (about 35 MB of jars and a start-up archive, once per machine). Throws
 * TimeSkippingServerUnavailableError with what to install otherwise.
 */
export async function findTimeSkippingServer(options: FindTimeSkippingServerOptions = {}): Promise<string> {
  if (options.explicitPath) {
    if (isExecutable(options.explicitPath)) return options.explicitPath;
    throw new TimeSkippingServerUnavailableError(
      `TEMPORAL_TEST_SERVER=${options.explicitPath} is not an executable`,
    );
  }
  const cacheDir = options.cacheDir ?? defaultTestServerCacheDir(process.env);
  const cached = path.join(cacheDir, wrapperName);
  if (isExecutable(cached)) return cached;
  if (options.allowBuild === false) {
    throw new TimeSkippingServerUnavailableError(`it is not cached in ${cacheDir}`);
  }
  await provision(cacheDir, options.progress ?? process.stderr, options.pathEnv ?? process.env.PATH);
  if (isExecutable(cached)) return cached;
  throw new TimeSkippingServerUnavailableError(`provisioning finished but ${cached} is not executable`);
}
