import type { Boleto } from '../bank/schemas/boleto.js';
import { seedBoletos } from './seed/boletos.js';
import { seededRandomFor } from './seed/random.js';
import { seedWorld, type SandboxWorld } from './seed/world.js';

export interface SandboxStateOptions {
  seed: number;
  /** The instant seeded data is generated around; fixed in tests so totals can be computed independently. */
  now?: Date;
}

/** Everything the sandbox bank knows. `reset()` restores the seeded state. */
export class SandboxState {
  world!: SandboxWorld;
  boletos = new Map<string, Boleto>();

  constructor(private readonly options: SandboxStateOptions) {
    this.reset();
  }

  get seed(): number {
    return this.options.seed;
  }

  reset(): void {
    const { seed } = this.options;
    const now = this.options.now ?? new Date();
    this.world = seedWorld(seededRandomFor(seed, 'world'));
    this.boletos = new Map(
      seedBoletos(seededRandomFor(seed, 'boletos'), this.world.virtualAccountIds, 120, now).map((b) => [b.id, b]),
    );
  }
}
