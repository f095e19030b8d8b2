import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import {
  EncryptionCodec,
  EncryptionKeyError,
  parseEncryptionKeys,
  PlaintextPayloadError,
} from '../../src/temporal/encryption.js';
import { isPlaintextMarker, plaintextMarkerKey } from '../../src/workflows/plaintext-marker.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const payloadOf = (value: unknown) => defaultPayloadConverter.toPayload(value);

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

  it('refuses a payload under an unknown key, a tampered one, and a truncated one', async () => {
    const writer = new EncryptionCodec(parseEncryptionKeys(key('gone')), 'refuse');
    const reader = new EncryptionCodec(parseEncryptionKeys(key('other')), 'refuse');
    const [sealed] = await writer.encode([payloadOf('secret')]);
    await expect(reader.decode([sealed!])).rejects.toThrow(
      'payload encrypted with key "gone", which is not configured',
    );

    const data = Buffer.from(sealed?.data ?? []);
    data[20] = (data[20] ?? 0) ^ 0xff;
    await expect(writer.decode([{ ...sealed, data }])).rejects.toThrow();
    await expect(writer.decode([{ ...sealed, data: data.subarray(0, 10) }])).rejects.toThrow('truncated');
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
    expect(isPlaintextMarker(value)).toBe(true);
    expect(value).toEqual({ [plaintextMarkerKey]: 'json/plain' });
    expect(isPlaintextMarker({ tax_number: '12345678909' })).toBe(false);
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
