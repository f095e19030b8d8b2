import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import { refusedPayloadKey } from '../contract/plaintext-marker.js';

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
 * `TEMPORAL_ENCRYPTION_KEYS`: `id:base64key` entries separated by commas, the current key first. Older keys
 * stay listed while histories encrypted with them are still read (key rotation).
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
 * A payload that reached a worker or client in clear while keys are configured: bankflow never writes one, so
 * it came from a client without bankflow's payload codec, e.g. someone with write access to the namespace
 * posing as the bank with a plaintext signal.
 */
export class PlaintextPayloadError extends Error {
  constructor(encoding: string) {
    super(
      `refused a payload that is not encrypted (encoding ${quoted(encoding)}): with ` +
        'TEMPORAL_ENCRYPTION_KEYS set, workflow inputs, signals and updates must come from a client using ' +
        "bankflow's data converter (bankflowDataConverter, the same keys); start or signal through bankflow",
    );
    this.name = 'PlaintextPayloadError';
  }
}

/**
 * A payload labelled `binary/encrypted` that does not decrypt: random bytes, a key id no process of this
 * deployment holds, a truncated or altered ciphertext. The reason names the key id, never key material.
 */
export class UndecodablePayloadError extends Error {
  constructor(readonly reason: string) {
    super(
      `refused an encrypted payload that does not decrypt (${reason}): every bankflow client and worker must ` +
        'share TEMPORAL_ENCRYPTION_KEYS, and a key leaves the list only once no history uses it',
    );
    this.name = 'UndecodablePayloadError';
  }
}

/**
 * What `decode` does with a payload it cannot read as one bankflow wrote (in clear, or labelled encrypted but
 * not decrypting): `refuse` in clients (the call fails, PlaintextPayloadError or UndecodablePayloadError);
 * `mark` in workers, which hand workflow code a marker it refuses (src/workflows/plaintext-refusal.ts) so the
 * workflow goes on; `pass` in the codec server, which only shows support staff what a history holds: a
 * payload in clear as it is, one that does not decrypt as the marker a worker's workflow saw.
 */
export type UnreadablePolicy = 'refuse' | 'mark' | 'pass';

/**
 * A sender's string (an encoding, a key id) quoted for a message, cut short: it may be anything, of any size.
 */
function quoted(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}...` : text);
}

const metadataText = (payload: Payload, key: string) => Buffer.from(payload.metadata?.[key] ?? []).toString();

type Opened = { payload: Payload } | { plaintext: string } | { undecodable: string };

/**
 * Encrypts every payload bankflow hands to Temporal (inputs, results, signals, updates, queries, memo,
 * summaries) with AES-256-GCM, so customer data (tax numbers, names, accounts, FIDO assertions) never reaches
 * the server in clear. The key id travels in the payload's metadata, so payloads written with an older key
 * still decrypt.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly current: EncryptionKey;
  private readonly byId: Map<string, Buffer>;

  constructor(
    keys: EncryptionKey[],
    private readonly unreadable: UnreadablePolicy,
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
      const opened = this.open(payload);
      if ('payload' in opened) return opened.payload;
      if ('plaintext' in opened) {
        if (this.unreadable === 'pass') return payload;
        if (this.unreadable === 'mark')
          return marker(`is not encrypted (encoding ${quoted(opened.plaintext)})`);
        throw new PlaintextPayloadError(opened.plaintext);
      }
      if (this.unreadable === 'refuse') throw new UndecodablePayloadError(opened.undecodable);
      return marker(`does not decrypt (${opened.undecodable})`);
    });
  }

  /** The payload bankflow encrypted, or why this one is not one: its encoding, or why it does not decrypt. */
  private open(payload: Payload): Opened {
    const encoding = metadataText(payload, 'encoding');
    if (encoding !== encryptedEncoding) return { plaintext: encoding };
    const keyId = metadataText(payload, keyIdMetadata);
    if (!keyId) return { undecodable: `no key id: the ${keyIdMetadata} metadata is missing` };
    const key = this.byId.get(keyId);
    if (!key) {
      const known = [...this.byId.keys()].map(quoted).join(', ');
      return { undecodable: `unknown key id ${quoted(keyId)}; the keys configured here are ${known}` };
    }
    const sealed = Buffer.from(payload.data ?? []);
    if (sealed.length < ivBytes + tagBytes) {
      return {
        undecodable: `truncated: ${sealed.length} bytes, fewer than the ${ivBytes + tagBytes} of an IV and an authentication tag`,
      };
    }
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes));
      decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
      plain = Buffer.concat([
        decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)),
        decipher.final(),
      ]);
    } catch {
      return {
        undecodable: `authentication failed under key id ${quoted(keyId)}: altered, or not encrypted with this key`,
      };
    }
    try {
      return { payload: PayloadMessage.decode(plain) };
    } catch {
      return { undecodable: 'the decrypted bytes are not a Temporal payload' };
    }
  }
}

/** The marker workflow code refuses, saying why: see plaintext-marker.ts. */
function marker(reason: string): Payload {
  return defaultPayloadConverter.toPayload({ [refusedPayloadKey]: reason });
}
