/** An activity with no work in it: what the engine alone charges to schedule, run and record one activity. */
export async function noop(step: string): Promise<string> {
  return step;
}
