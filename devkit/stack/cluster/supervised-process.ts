import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Run as this user (PostgreSQL refuses to run as root). */
  user?: { uid: number; gid: number };
  /** Started again a second after it exits by itself, as a process supervisor would. */
  restart?: boolean;
  /** The signal that stops it promptly (PostgreSQL: SIGINT, its fast shutdown). */
  stopSignal?: NodeJS.Signals;
  /** How long it may take to stop before it is killed. */
  graceMs?: number;
  /**
   * Where its output goes as it is (bankflow's own processes, whose lines are already pino's); else debug
   * logs.
   */
  echo?: NodeJS.WritableStream;
}

/**
 * One child of `bankflow cluster`, in a process group of its own so a terminal's Ctrl-C reaches only
 * bankflow, which then stops the children in order (workers before the server, the server before its
 * database).
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  restarts = 0;
  /** The end of its output, for the error when it fails to come up. */
  recentOutput = '';

  constructor(
    readonly spec: ProcessSpec,
    private readonly logger: Logger,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    const { spec } = this;
    const log = this.logger.child({ component: spec.name });
    const child = spawn(spec.command, spec.args, {
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...(spec.user ?? {}),
    });
    this.child = child;
    const forward = (chunk: Buffer) => {
      this.recentOutput = (this.recentOutput + chunk.toString()).slice(-2_000);
      if (spec.echo) spec.echo.write(chunk);
      else for (const line of chunk.toString().split('\n').filter(Boolean)) log.debug(line);
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        log.error({ err: error }, `${spec.name} could not start`);
        resolve();
      });
      child.once('exit', (code, signal) => {
        resolve();
        if (this.stopping) return;
        log.warn({ code, signal }, `${spec.name} exited by itself`);
        if (spec.restart) {
          this.restartTimer = setTimeout(() => {
            this.restarts++;
            log.info(`restarting ${spec.name}`);
            this.start();
          }, 1_000);
        }
      });
    });
  }

  /** Stops it for good: its stop signal, then SIGKILL after the grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || !this.running) return;
    child.kill(this.spec.stopSignal ?? 'SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), this.spec.graceMs ?? 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}
