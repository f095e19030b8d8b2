import { randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import {
  EncryptionCodec,
  encryptedEncoding,
  keyIdMetadata,
  type EncryptionKey,
} from '../../src/temporal/encryption.js';

/**
 * Payloads labelled encrypted that bankflow's keys do not open, as someone with write access to the namespace
 * but without the keys could send them: random bytes under a real key id, a made-up key id, a genuine
 * ciphertext (copied from a history) cut short, no key id, no bytes, and an encoding bankflow does not write.
 */
export const undecodableKinds = [
  'random bytes',
  'unknown key id',
  'truncated ciphertext',
  'no key id',
  'empty',
  'unknown encoding',
] as const;
export type UndecodableKind = (typeof undecodableKinds)[number];

const encrypted = (metadata: Record<string, string>, data: Uint8Array): Payload => ({
  metadata: Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, Buffer.from(value)])),
  data,
});

function mangle(kind: UndecodableKind, sealed: Payload, keyId: string): Payload {
  const genuine = Buffer.from(sealed.data ?? []);
  switch (kind) {
    case 'random bytes':
      return encrypted({ encoding: encryptedEncoding, [keyIdMetadata]: keyId }, randomBytes(genuine.length));
    case 'unknown key id':
      return encrypted({ encoding: encryptedEncoding, [keyIdMetadata]: 'hostile-key' }, genuine);
    case 'truncated ciphertext':
      return encrypted({ encoding: encryptedEncoding, [keyIdMetadata]: keyId }, genuine.subarray(0, 20));
    case 'no key id':
      return encrypted({ encoding: encryptedEncoding }, genuine);
    case 'empty':
      return encrypted({ encoding: encryptedEncoding, [keyIdMetadata]: keyId }, new Uint8Array());
    case 'unknown encoding':
      return encrypted({ encoding: `${encryptedEncoding}+gzip`, [keyIdMetadata]: keyId }, genuine);
  }
}

/**
 * The payload codec of a hostile client: every payload it sends is one of the kinds above. What it receives
 * it leaves as it came (it cannot read bankflow's payloads); a refusal's message is readable all the same.
 */
export class UndecodableCodec implements PayloadCodec {
  private readonly genuine: EncryptionCodec;

  constructor(
    private readonly keys: EncryptionKey[],
    private readonly kind: UndecodableKind,
  ) {
    this.genuine = new EncryptionCodec(keys, 'refuse');
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const sealed = await this.genuine.encode(payloads);
    return sealed.map((payload) => mangle(this.kind, payload, this.keys[0]?.id ?? ''));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads;
  }
}
