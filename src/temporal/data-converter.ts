import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, type EncryptionKey, type UnreadablePolicy } from './encryption.js';

/**
 * The module whose `failureConverter` encodes failure messages and stack traces (failure-converter.cjs): the
 * SDK loads a failure converter only by path, in clients and workers alike, and bundles it into the
 * workflows.
 */
export const failureConverterPath = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'failure-converter.cjs',
);

/**
 * The one data converter every bankflow client and worker uses, so each side can read what the other wrote,
 * and nothing else: a client refuses a payload in clear or one that does not decrypt; a worker (`mark`) lets
 * its workflows refuse either without failing their task, so a forged signal cannot stall a payment. Failure
 * messages and stack traces are payloads too, encrypted with the rest.
 */
export function bankflowDataConverter(
  keys: EncryptionKey[],
  unreadable: Exclude<UnreadablePolicy, 'pass'> = 'refuse',
): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys, unreadable)], failureConverterPath };
}
