import v8 from 'node:v8';

export interface WorkflowThreadHeap {
  /** V8's old-generation cap (`--max-old-space-size`), MB. */
  oldSpaceMb: number;
  /** V8's cap on each of the young generation's two halves (`--max-semi-space-size`), MB. */
  semiSpaceMb: number;
}

const flags = { oldSpaceMb: '--max-old-space-size', semiSpaceMb: '--max-semi-space-size' } as const;

/** What this process was started with for `flag` (`NODE_OPTIONS` or node's own arguments), if anything. */
export function startupFlagMb(
  flag: string,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
  execArgv = process.execArgv,
): number | undefined {
  // Node reads NODE_OPTIONS first and its own arguments after, and V8 keeps the last value it is given.
  const values = [...nodeOptions.split(/\s+/), ...execArgv].flatMap((argument) => {
    const [name, value] = argument.split('=');
    return name?.replaceAll('_', '-') === flag && value !== undefined && /^\d+$/.test(value)
      ? [Number(value)]
      : [];
  });
  return values.at(-1);
}

function setFlags(heap: WorkflowThreadHeap): void {
  v8.setFlagsFromString(`${flags.oldSpaceMb}=${heap.oldSpaceMb}`);
  v8.setFlagsFromString(`${flags.semiSpaceMb}=${heap.semiSpaceMb}`);
}

/**
 * Runs `create` with V8's heap flags set to `heap`, so the isolates it starts (the SDK's workflow thread, which
 * takes no resource limits from the SDK's options) get that heap, then puts the process's own flags back. An
 * isolate reads these flags once, when it is created: the main thread keeps the heap it started with, and the
 * SDK's Worker.create resolves only once its thread has answered, so its isolate exists by then.
 */
export async function withWorkflowThreadHeap<T>(
  heap: WorkflowThreadHeap,
  create: () => Promise<T>,
): Promise<T> {
  setFlags(heap);
  try {
    return await create();
  } finally {
    // 0 is V8's own default: sized from the machine's memory.
    setFlags({
      oldSpaceMb: startupFlagMb(flags.oldSpaceMb) ?? 0,
      semiSpaceMb: startupFlagMb(flags.semiSpaceMb) ?? 0,
    });
  }
}
