import type { BankClient } from '../bank/client.js';
import { deviceRequestSchema, type Device, type DeviceRequest } from '../bank/schemas/device.js';
import type { ParticipantListing } from '../bank/schemas/participant-listing.js';
import { uuid } from '../bank/schemas/common.js';
import { z } from 'zod';
import { parseInput } from './errors.js';

/** Bank reads the merchant backend makes directly: short, idempotent, no workflow needed. */
export interface BankReadContext {
  bank: BankClient;
}

/** Step 2 of the biometric flow: the bank finds the device by fingerprint and tax number, or creates it. */
export async function findOrCreateDevice(ctx: BankReadContext, request: DeviceRequest): Promise<Device> {
  return ctx.bank.findOrCreateDevice(parseInput(deviceRequestSchema, request));
}

export const listParticipantsInput = z.object({ deviceId: uuid.optional() });

/**
 * Step 3: the participants the customer can enroll with. With a device, each carries `enrolled?`, and
 * enrolled participants come first (the bank's order is kept otherwise).
 */
export async function listParticipants(
  ctx: BankReadContext,
  input: { deviceId?: string } = {},
): Promise<ParticipantListing[]> {
  const { deviceId } = parseInput(listParticipantsInput, input);
  const page = await ctx.bank.listParticipants(deviceId ? { device_id: deviceId } : {});
  const enrolled = (participant: ParticipantListing) => (participant['enrolled?'] === true ? 0 : 1);
  return [...page.data].sort((a, b) => enrolled(a) - enrolled(b));
}
