import type { Boleto } from '../../src/bank/schemas/boleto.js';
import type { SoftwareAuthenticator } from '../authenticator/software-authenticator.js';
import { BankData } from './bank-data.js';
import { BiometricsState, type BiometricsSettings } from './biometrics/state.js';
import { LaggedReads } from './lagged-reads.js';
import { seedBoletos } from './seed/boletos.js';
import { seededRandomFor } from './seed/random.js';
import { seedWorld, type SandboxWorld } from './seed/world.js';

export interface SandboxStateOptions {
  seed: number;
  /** The instant seeded data is generated around; fixed in tests so totals can be computed independently. */
  now?: Date;
  /**
   * Pix biometrics clocks (consent window, settlement delay, enrollment windows) that `reset()` returns to.
   */
  biometrics?: Partial<BiometricsSettings>;
  /**
   * How far the bank's reads lag behind its writes, read at every GET (the `get_lag_ms` fault); none by
   * default.
   */
  readLagMs?: () => number;
}

/** Everything the sandbox bank knows. `reset()` restores the seeded state. */
export class SandboxState {
  world!: SandboxWorld;
  boletos = new Map<string, Boleto>();
  /** Transfers, cash-ins, refunds, recurrences and attempts, cards: the data endpoints' records. */
  bankData!: BankData;
  /** Customers' devices the control API plays (`/sandbox/authenticators`), by id. */
  readonly authenticators = new Map<string, SoftwareAuthenticator>();

  readonly biometrics: BiometricsState;
  readonly reads: LaggedReads;

  constructor(private readonly options: SandboxStateOptions) {
    this.biometrics = new BiometricsState(options.seed, options.biometrics);
    this.reads = new LaggedReads(options.readLagMs ?? (() => 0));
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
      seedBoletos(seededRandomFor(seed, 'boletos'), this.world.virtualAccountIds, 120, now).map((b) => [
        b.id,
        b,
      ]),
    );
    this.biometrics.reset();
    this.reads.clear();
    this.authenticators.clear();
    this.bankData = new BankData(seed, this.world, now);
  }
}
