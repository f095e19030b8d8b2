import type { SandboxWorld } from './world.js';

/** Who a virtual account belongs to and which bank account holds its money. */
export interface AccountOwner {
  virtualAccountId: string;
  entityId: string;
  bankAccountId: string;
}

/**
 * The world lists ids only; this fixes the ownership every data record agrees on: virtual account i belongs
 * to entity i mod E and is held in bank account i mod B.
 */
export function accountOwners(world: SandboxWorld): AccountOwner[] {
  return world.virtualAccountIds.map((virtualAccountId, index) => ({
    virtualAccountId,
    entityId: world.entityIds[index % world.entityIds.length] as string,
    bankAccountId: world.bankAccountIds[index % world.bankAccountIds.length] as string,
  }));
}

export function ownerOf(world: SandboxWorld, virtualAccountId: string): AccountOwner | undefined {
  return accountOwners(world).find((owner) => owner.virtualAccountId === virtualAccountId);
}
