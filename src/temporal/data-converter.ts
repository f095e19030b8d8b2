import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, type EncryptionKey } from './encryption.js';

/**
 * The one data converter every bankflow client and worker uses, so each side can read what the other wrote, and
 * nothing else: a plaintext payload is refused.
 */
export function bankflowDataConverter(keys: EncryptionKey[]): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys, 'refuse')] };
}
