import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import { plaintextMarkerKey } from '../workflows/plaintext-marker.js';

const { Payload: PayloadMessage } = proto.temporal.api.common.v1;

export const encryptedEncoding = 'binary/encrypted';
export const keyIdMetadata = 'encryption-key-id';
const ivBytes = 12;
const tagBytes = 16;

export interface EncryptionKey {
  id: string;
  /** 32 bytes: AES-256. */
  key: Buffer;
}

export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

/**
 * `TEMPORAL_ENCRYPTION_KEYS`: `id:base64key` entries separated by commas, the current key first. Older keys stay
 * listed while histories encrypted with them are still read (key rotation).
 */
export function parseEncryptionKeys(spec: string): EncryptionKey[] {
  const keys = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, index) => {
      const colon = entry.indexOf(':');
      const id = colon > 0 ? entry.slice(0, colon) : '';
      if (!/^[\w.-]{1,64}$/.test(id)) {
        throw new EncryptionKeyError(
          `entry ${index + 1} must be <key id>:<base64 key> with a key id of letters, digits, . _ -`,
        );
      }
      const key = Buffer.from(entry.slice(colon + 1), 'base64');
      if (key.length !== 32) {
        throw new EncryptionKeyError(
          `key ${id} must be 32 bytes (base64 of 32 random bytes), got ${key.length}`,
        );
      }
      return { id, key };
    });
  if (keys.length === 0) throw new EncryptionKeyError('at least one key is required');
  const ids = keys.map((entry) => entry.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) throw new EncryptionKeyError(`key id ${repeated} is listed twice`);
  return keys;
}

/**
 * A payload that reached a worker or client in clear while keys are configured: bankflow never writes one, so it
 * came from a client without bankflow's payload codec, e.g. someone with write access to the namespace posing as
 * the bank with a plaintext signal.
 */
export class PlaintextPayloadError extends Error {
  constructor(encoding: string) {
    super(
      `refused a payload that is not encrypted (encoding ${JSON.stringify(encoding)}): with ` +
        'TEMPORAL_ENCRYPTION_KEYS set, workflow inputs, signals and updates must come from a client using ' +
        "bankflow's data converter (bankflowDataConverter, the same keys); start or signal through bankflow",
    );
    this.name = 'PlaintextPayloadError';
  }
}

/**
 * What `decode` does with a payload that is not encrypted: `refuse` in clients (the call fails); `mark` in workers,
 * which hand workflow code a marker it refuses (src/workflows/plaintext-refusal.ts) so the workflow goes on; `pass`
 * in the codec server, which only shows support staff what a history holds.
 */
export type PlaintextPolicy = 'refuse' | 'mark' | 'pass';

/**
 * Encrypts every payload bankflow hands to Temporal (inputs, results, signals, updates, queries, memo,
 * summaries) with AES-256-GCM, so customer data (tax numbers, names, accounts, FIDO assertions) never reaches the
 * server in clear. The key id travels in the payload's metadata, so payloads written with an older key still
 * decrypt.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly current: EncryptionKey;
  private readonly byId: Map<string, Buffer>;

  constructor(
    keys: EncryptionKey[],
    private readonly plaintext: PlaintextPolicy,
  ) {
    const [current] = keys;
    if (!current) throw new EncryptionKeyError('at least one key is required');
    this.current = current;
    this.byId = new Map(keys.map((entry) => [entry.id, entry.key]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
      const plain = PayloadMessage.encode(payload).finish();
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          encoding: Buffer.from(encryptedEncoding),
          [keyIdMetadata]: Buffer.from(this.current.id),
        },
        data: sealed,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const encoding = Buffer.from(payload.metadata?.encoding ?? []).toString();
      if (encoding !== encryptedEncoding) {
        if (this.plaintext === 'pass') return payload;
        if (this.plaintext === 'mark')
          return defaultPayloadConverter.toPayload({ [plaintextMarkerKey]: encoding });
        throw new PlaintextPayloadError(encoding);
      }
      const keyId = Buffer.from(payload.metadata?.[keyIdMetadata] ?? []).toString();
      const key = this.byId.get(keyId);
      if (!key)
        throw new EncryptionKeyError(
          `payload encrypted with key ${JSON.stringify(keyId)}, which is not configured`,
        );
      const sealed = Buffer.from(payload.data ?? []);
      if (sealed.length < ivBytes + tagBytes) throw new EncryptionKeyError('encrypted payload is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes));
      decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
      const plain = Buffer.concat([
        decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)),
        decipher.final(),
      ]);
      return PayloadMessage.decode(plain);
    });
  }
}
