/**
 * Events the reorder fault holds back. They go out once the next event has been sent, or when their hold
 * ends if no next event comes, so a held event is late, never lost.
 */
export class ReorderBuffer<T> {
  private held: { item: T; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly release: (item: T) => void) {}

  hold(item: T, maxHoldMs: number): void {
    const entry = {
      item,
      timer: setTimeout(() => {
        this.held = this.held.filter((other) => other !== entry);
        this.release(item);
      }, maxHoldMs),
    };
    this.held.push(entry);
  }

  /** Everything held, oldest first; their hold timers stop. */
  takeAll(): T[] {
    const items = this.held.map((entry) => {
      clearTimeout(entry.timer);
      return entry.item;
    });
    this.held = [];
    return items;
  }
}
