import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { portFree } from '../../devkit/stack/cluster/ports.js';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** `npm run cluster`'s process, as an operator runs it: the built CLI, its banner read for the pids. */
export interface ClusterProcess {
  child: ChildProcess;
  banner: string;
  pids: { postgres: number; server: number; workers: number[] };
}

function pidOf(banner: string, label: RegExp): number {
  const match = label.exec(banner);
  if (!match?.[1]) throw new Error(`no ${label.source} in the banner:\n${banner}`);
  return Number(match[1]);
}

export async function startCluster(env: Record<string, string>, logFile: string): Promise<ClusterProcess> {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(repositoryRoot, 'dist/src/cli/main.js'), 'cluster'], {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const banner = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      output += chunk.toString();
      const at = output.indexOf('bankflow cluster is running');
      if (at >= 0 && output.includes('Press Ctrl-C to stop', at)) resolve(output.slice(at));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`bankflow cluster exited (${code}):\n${output.slice(-3_000)}`)),
    );
  });
  const workers = [...banner.matchAll(/worker-\d+ \(pid (\d+)\)/g)].map((match) => Number(match[1]));
  return {
    child,
    banner,
    pids: {
      postgres: pidOf(banner, /PostgreSQL .*\(pid (\d+)\)/),
      server: pidOf(banner, /Temporal gRPC .*\(pid (\d+)\)/),
      workers,
    },
  };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ctrl-C, then what is left: processes still alive and ports still bound. */
export async function interruptCluster(
  cluster: ClusterProcess,
  pids: number[],
  ports: number[],
): Promise<{ exitCode: number | null; seconds: number; alive: number[]; bound: number[] }> {
  const started = performance.now();
  const exited = new Promise<number | null>((resolve) => cluster.child.once('exit', (code) => resolve(code)));
  cluster.child.kill('SIGINT');
  const exitCode = await exited;
  const seconds = (performance.now() - started) / 1000;
  const bound: number[] = [];
  for (const port of ports) if (!(await portFree(port))) bound.push(port);
  return { exitCode, seconds, alive: pids.filter(alive), bound };
}
