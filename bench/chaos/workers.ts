import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { repositoryScript, startCliProcess, terminate, type CliProcess } from './cli-process.js';

/** What a slot runs: the run's own code (`bankflow worker`), or the new build deployed mid-run. */
export type WorkerBuild = 'initial' | 'new';

interface Slot extends CliProcess {
  /** Set when the harness kills or stops it, so only an exit nobody asked for counts as a crash. */
  expectedExit: boolean;
}

/**
 * `bankflow worker` processes (the CLI run from source), one per slot. A worker is SIGKILLed and restarted on
 * demand; one that exits by itself is counted and restarted, as a process supervisor would. A slot redeployed
 * on the new build runs it from then on, through every later kill and restart.
 */
export class WorkerPool {
  readonly counts = { started: 0, killed: 0, exitedByThemselves: 0, redeployed: 0 };
  private readonly slots: (Slot | undefined)[];
  private readonly builds: WorkerBuild[];
  private readonly logs: WriteStream[];
  private stopping = false;

  constructor(
    size: number,
    private readonly env: Record<string, string>,
    logDir: string,
  ) {
    this.slots = Array.from({ length: size }, () => undefined);
    this.builds = this.slots.map(() => 'initial');
    this.logs = this.slots.map((_, index) =>
      createWriteStream(path.join(logDir, `worker-${index + 1}.log`), { flags: 'a' }),
    );
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * Starts every empty slot and resolves once each worker polls its task queue, trying again for a minute.
   */
  async startAll(): Promise<void> {
    const deadline = Date.now() + 60_000;
    await Promise.all(
      this.slots.map(async (_, index) => {
        for (;;) {
          try {
            return await (this.slots[index]?.ready ?? this.start(index));
          } catch (error) {
            if (Date.now() >= deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        }
      }),
    );
  }

  isRunning(index: number): boolean {
    return this.slots[index] !== undefined;
  }

  /**
   * A deploy of one worker: SIGTERM (it finishes its tasks in hand and exits, as a rolling deploy stops it),
   * then the new build in its place. Resolves once the new build's worker runs.
   */
  async redeploy(index: number): Promise<void> {
    const slot = this.slots[index];
    this.builds[index] = 'new';
    this.counts.redeployed++;
    if (slot) {
      slot.expectedExit = true;
      this.slots[index] = undefined;
      await terminate(slot);
    }
    await this.start(index);
  }

  /** SIGKILL: no shutdown, no draining; in-flight activities and workflow tasks are simply lost. */
  async kill(index: number): Promise<void> {
    const slot = this.slots[index];
    if (!slot) return;
    slot.expectedExit = true;
    this.slots[index] = undefined;
    slot.child.kill('SIGKILL');
    this.counts.killed++;
    await slot.exited;
  }

  /**
   * Starts the slot's build; a slot already running (the kills and a deploy both start workers) is left as it
   * is.
   */
  start(index: number): Promise<void> {
    const running = this.slots[index];
    if (running) return running.ready;
    const log = this.logs[index];
    if (!log) throw new Error(`no worker slot ${index}`);
    const started =
      this.builds[index] === 'new'
        ? startCliProcess(
            [],
            this.env,
            log,
            'worker running',
            repositoryScript('devkit/versioning/worker-b.ts'),
          )
        : startCliProcess(['worker'], this.env, log, 'worker running');
    const slot: Slot = { ...started, expectedExit: false };
    this.counts.started++;
    this.slots[index] = slot;
    void slot.exited.then(() => this.onExit(index, slot));
    return slot.ready;
  }

  private onExit(index: number, slot: Slot): void {
    if (slot.expectedExit || this.stopping) return;
    this.counts.exitedByThemselves++;
    if (this.slots[index] === slot) this.slots[index] = undefined;
    setTimeout(() => {
      if (!this.stopping && !this.slots[index]) void this.start(index).catch(() => undefined);
    }, 1_000);
  }

  /** SIGTERM every worker (they drain and exit), SIGKILL after 15 s. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.slots.map(async (slot, index) => {
        if (!slot) return;
        slot.expectedExit = true;
        this.slots[index] = undefined;
        await terminate(slot);
      }),
    );
    await Promise.all(this.logs.map((log) => new Promise((resolve) => log.end(resolve))));
  }
}
