import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, type EncryptionKey, type UnreadablePolicy } from './encryption.js';

/**
 * The one data converter every bankflow client and worker uses, so each side can read what the other wrote, and
 * nothing else: a client refuses a payload in clear or one that does not decrypt; a worker (`mark`) lets its
 * workflows refuse either without failing their task, so a forged signal cannot stall a payment.
 */
export function bankflowDataConverter(
  keys: EncryptionKey[],
  unreadable: Exclude<UnreadablePolicy, 'pass'> = 'refuse',
): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys, unreadable)] };
}
