import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { startCliProcess, terminate, type CliProcess } from './cli-process.js';

/** The webhook receiver as operators run it (`bankflow webhooks`), restartable on the same port. */
export class ChaosReceiver {
  restarts = 0;
  private running: CliProcess | undefined;
  private readonly log: WriteStream;

  constructor(
    private readonly env: Record<string, string> & { WEBHOOK_HOST: string; WEBHOOK_PORT: string },
    logDir: string,
  ) {
    this.log = createWriteStream(path.join(logDir, 'receiver.log'), { flags: 'a' });
  }

  get webhooksUrl(): string {
    return `http://${this.env.WEBHOOK_HOST}:${this.env.WEBHOOK_PORT}/webhooks`;
  }

  async start(): Promise<void> {
    this.running = startCliProcess(['webhooks'], this.env, this.log, 'webhook receiver is running');
    await this.running.ready;
  }

  /** SIGTERM (in-flight requests finish), the port stays closed for `pauseMs`, then a new receiver starts. */
  async restart(pauseMs: number): Promise<void> {
    await this.stop();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    await this.start();
    this.restarts++;
  }

  async stop(): Promise<void> {
    if (this.running) await terminate(this.running);
    this.running = undefined;
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise((resolve) => this.log.end(resolve));
  }
}
