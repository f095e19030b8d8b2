import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, type EncryptionKey, type PlaintextPolicy } from './encryption.js';

/**
 * The one data converter every bankflow client and worker uses, so each side can read what the other wrote, and
 * nothing else: a client refuses a plaintext payload; a worker (`mark`) lets its workflows refuse one without
 * failing their task, so a forged signal cannot stall a payment.
 */
export function bankflowDataConverter(
  keys: EncryptionKey[],
  plaintext: Exclude<PlaintextPolicy, 'pass'> = 'refuse',
): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys, plaintext)] };
}
