import { createCipheriv, randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import {
  EncryptionCodec,
  EncryptionKeyError,
  keyIdMetadata,
  parseEncryptionKeys,
  PlaintextPayloadError,
  UndecodablePayloadError,
  type EncryptionKey,
} from '../../src/temporal/encryption.js';
import { isRefusedPayloadMarker, refusedPayloadKey } from '../../src/contract/plaintext-marker.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const payloadOf = (value: unknown) => defaultPayloadConverter.toPayload(value);

/**
 * AES-256-GCM of any bytes under the first key, laid out as the codec lays out a payload: IV, ciphertext,
 * tag.
 */
function encryptedWith([first]: EncryptionKey[], plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', first!.key, iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

describe('payload encryption', () => {
  it('round-trips payloads and hides their content', async () => {
    const codec = new EncryptionCodec(parseEncryptionKeys(key('k1')), 'refuse');
    const original = payloadOf({ tax_number: '12345678909', name: 'Maria Silva' });
    const [encrypted] = await codec.encode([original]);
    expect(Buffer.from(encrypted?.metadata?.encoding ?? []).toString()).toBe('binary/encrypted');
    expect(Buffer.from(encrypted?.metadata?.['encryption-key-id'] ?? []).toString()).toBe('k1');
    expect(Buffer.from(encrypted?.data ?? []).toString('latin1')).not.toContain('12345678909');
    const [decoded] = await codec.decode([encrypted!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({
      tax_number: '12345678909',
      name: 'Maria Silva',
    });
  });

  it('uses a fresh IV for every payload', async () => {
    const codec = new EncryptionCodec(parseEncryptionKeys(key('k1')), 'refuse');
    const [a, b] = await codec.encode([payloadOf('same'), payloadOf('same')]);
    expect(Buffer.from(a?.data ?? []).equals(Buffer.from(b?.data ?? []))).toBe(false);
  });

  it('rotates keys: new payloads use the first key, older ones still decrypt', async () => {
    const oldKey = key('2025');
    const oldCodec = new EncryptionCodec(parseEncryptionKeys(oldKey), 'refuse');
    const rotated = new EncryptionCodec(parseEncryptionKeys(`${key('2026')},${oldKey}`), 'refuse');
    const [old] = await oldCodec.encode([payloadOf('written last year')]);
    const [decoded] = await rotated.decode([old!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toBe('written last year');
    const [fresh] = await rotated.encode([payloadOf('new')]);
    expect(Buffer.from(fresh?.metadata?.['encryption-key-id'] ?? []).toString()).toBe('2026');
  });

  it('refuses a payload that does not decrypt in a client, naming why and never the key', async () => {
    const writerKeys = parseEncryptionKeys(key('gone'));
    const writer = new EncryptionCodec(writerKeys, 'refuse');
    const readerKeys = parseEncryptionKeys(`${key('other')},${key('older')}`);
    const reader = new EncryptionCodec(readerKeys, 'refuse');
    const [sealed] = await writer.encode([payloadOf('secret')]);
    const refusal = async (codec: EncryptionCodec, payload: Payload) =>
      codec.decode([payload]).then(
        () => undefined,
        (error: unknown) => error,
      );

    const unknown = await refusal(reader, sealed!);
    expect(unknown).toBeInstanceOf(UndecodablePayloadError);
    expect((unknown as Error).message).toBe(
      'refused an encrypted payload that does not decrypt (unknown key id "gone"; the keys configured here are ' +
        '"other", "older"): every bankflow client and worker must share TEMPORAL_ENCRYPTION_KEYS, and a key ' +
        'leaves the list only once no history uses it',
    );

    const data = Buffer.from(sealed?.data ?? []);
    data[20] = (data[20] ?? 0) ^ 0xff;
    const reasons = [
      [
        { ...sealed, data },
        'authentication failed under key id "gone": altered, or not encrypted with this key',
      ],
      [
        { ...sealed, data: data.subarray(0, 10) },
        'truncated: 10 bytes, fewer than the 28 of an IV and an authentication tag',
      ],
      [
        { ...sealed, data: new Uint8Array() },
        'truncated: 0 bytes, fewer than the 28 of an IV and an authentication tag',
      ],
      [
        { metadata: { encoding: Buffer.from('binary/encrypted') }, data },
        'no key id: the encryption-key-id metadata is missing',
      ],
      [
        { ...sealed, data: encryptedWith(writerKeys, Buffer.from('not a payload')) },
        'the decrypted bytes are not a Temporal payload',
      ],
    ] as [Payload, string][];
    for (const [payload, reason] of reasons) {
      const error = await refusal(writer, payload);
      expect(error).toBeInstanceOf(UndecodablePayloadError);
      expect((error as UndecodablePayloadError).reason).toBe(reason);
    }

    // An id of any size from whoever sent it is quoted short; the key itself appears nowhere.
    const longId = await refusal(writer, {
      ...sealed,
      metadata: { ...sealed?.metadata, [keyIdMetadata]: Buffer.from('x'.repeat(5_000)) },
    });
    expect((longId as Error).message).toContain(`unknown key id "${'x'.repeat(64)}..."`);
    for (const error of [unknown, longId]) {
      for (const { key: secret } of [...writerKeys, ...readerKeys]) {
        expect((error as Error).message).not.toContain(secret.toString('base64'));
        expect((error as Error).message).not.toContain(secret.toString('hex'));
      }
    }
  });

  it('refuses a payload that is not encrypted, marks it for a worker, and passes it in the codec server', async () => {
    const plain = payloadOf({ tax_number: '12345678909' });
    const strict = new EncryptionCodec(parseEncryptionKeys(key('k1')), 'refuse');
    await expect(strict.decode([plain])).rejects.toThrow(PlaintextPayloadError);
    await expect(strict.decode([plain])).rejects.toThrow(
      /^refused a payload that is not encrypted \(encoding "json\/plain"\): with TEMPORAL_ENCRYPTION_KEYS set/,
    );
    expect(await strict.decode([])).toEqual([]);
    const display = new EncryptionCodec(parseEncryptionKeys(key('k1')), 'pass');
    expect(await display.decode([plain])).toEqual([plain]);
    // A worker hands its workflows a marker instead, holding nothing of what the plaintext said.
    const worker = new EncryptionCodec(parseEncryptionKeys(key('k1')), 'mark');
    const [marked] = await worker.decode([plain]);
    const value: unknown = defaultPayloadConverter.fromPayload(marked!);
    expect(isRefusedPayloadMarker(value)).toBe(true);
    expect(value).toEqual({ [refusedPayloadKey]: 'is not encrypted (encoding "json/plain")' });
    expect(isRefusedPayloadMarker({ tax_number: '12345678909' })).toBe(false);
  });

  it('marks a payload that does not decrypt for a worker exactly as a plaintext one, and shows the codec server why', async () => {
    const keys = parseEncryptionKeys(key('k1'));
    const [genuine] = await new EncryptionCodec(keys, 'refuse').encode([
      payloadOf({ tax_number: '12345678909' }),
    ]);
    const undecodable: Payload[] = [
      {
        metadata: { encoding: Buffer.from('binary/encrypted'), [keyIdMetadata]: Buffer.from('k1') },
        data: randomBytes(64),
      },
      { ...genuine, metadata: { ...genuine?.metadata, [keyIdMetadata]: Buffer.from('k9') } },
      { ...genuine, data: Buffer.from(genuine?.data ?? []).subarray(0, 20) },
      { metadata: { encoding: Buffer.from('binary/encrypted') } },
    ];
    const unknownEncoding = {
      ...genuine,
      metadata: { ...genuine?.metadata, encoding: Buffer.from('binary/encrypted+gzip') },
    };
    const empty = {};
    const worker = new EncryptionCodec(keys, 'mark');
    const marks = (await worker.decode([...undecodable, unknownEncoding, empty, genuine!])).map((payload) =>
      defaultPayloadConverter.fromPayload<unknown>(payload),
    );
    expect(marks).toEqual([
      {
        [refusedPayloadKey]:
          'does not decrypt (authentication failed under key id "k1": altered, or not encrypted with this key)',
      },
      { [refusedPayloadKey]: 'does not decrypt (unknown key id "k9"; the keys configured here are "k1")' },
      {
        [refusedPayloadKey]:
          'does not decrypt (truncated: 20 bytes, fewer than the 28 of an IV and an authentication tag)',
      },
      { [refusedPayloadKey]: 'does not decrypt (no key id: the encryption-key-id metadata is missing)' },
      { [refusedPayloadKey]: 'is not encrypted (encoding "binary/encrypted+gzip")' },
      { [refusedPayloadKey]: 'is not encrypted (encoding "")' },
      // One bad payload in a batch leaves the others readable.
      { tax_number: '12345678909' },
    ]);
    // Support staff see the same marker in the Temporal UI instead of an error for the whole batch.
    const display = new EncryptionCodec(keys, 'pass');
    expect(await display.decode(undecodable)).toEqual(await worker.decode(undecodable));
  });

  it('explains what is wrong with a key list', () => {
    expect(() => parseEncryptionKeys('')).toThrow(EncryptionKeyError);
    expect(() => parseEncryptionKeys('nokey')).toThrow(/entry 1 must be <key id>:<base64 key>/);
    expect(() => parseEncryptionKeys('k1:c2hvcnQ=')).toThrow(
      'key k1 must be 32 bytes (base64 of 32 random bytes), got 5',
    );
    const k = key('dup');
    expect(() => parseEncryptionKeys(`${k},${k}`)).toThrow('key id dup is listed twice');
  });
});
