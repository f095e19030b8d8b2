import type { SeededRandom } from './random.js';

/** The merchant's own organisation at the bank: the ids every seeded record points back to. */
export interface SandboxWorld {
  orgId: string;
  companyId: string;
  entityIds: string[];
  virtualAccountIds: string[];
  bankAccountIds: string[];
}

export function seedWorld(random: SeededRandom): SandboxWorld {
  return {
    orgId: random.uuid(),
    companyId: random.uuid(),
    entityIds: [random.uuid(), random.uuid()],
    virtualAccountIds: [random.uuid(), random.uuid(), random.uuid()],
    bankAccountIds: [random.uuid(), random.uuid()],
  };
}
