import { rootMessage } from '../../../src/cli/failure-message.js';

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Prints a journey one numbered step per line, with how long each took. A failing step is printed as such and
 * rethrown with its title, so the one-line error says where the journey stopped.
 */
export class StepPrinter {
  private done = 0;

  constructor(
    private readonly total: number,
    private readonly print: (line: string) => void,
  ) {}

  private label(title: string): string {
    const width = String(this.total).length;
    return `${String(this.done + 1).padStart(width)}/${this.total}  ${title.padEnd(34)}`;
  }

  async step<T>(title: string, run: () => Promise<T>, describe: (value: T) => string): Promise<T> {
    const started = performance.now();
    try {
      const value = await run();
      this.print(
        `${this.label(title)}${formatDuration(performance.now() - started).padStart(8)}  ${describe(value)}`,
      );
      this.done++;
      return value;
    } catch (error) {
      this.print(`${this.label(title)}  failed after ${formatDuration(performance.now() - started)}`);
      throw new Error(`${title}: ${rootMessage(error)}`);
    }
  }

  /** A line under the last step, indented to its detail, e.g. a workflow's link. */
  note(text: string): void {
    this.print(`${' '.repeat(String(this.total).length * 2 + 3)}${text}`);
  }
}
