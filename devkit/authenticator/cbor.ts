/**
 * The slice of CBOR (RFC 8949) an authenticator writes: integers, byte and text strings, and maps. Kept apart
 * from the CBOR decoder the sandbox uses, so a bug on one side cannot hide the same bug on the other.
 */
export type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

function head(majorType: number, argument: number): Buffer {
  const major = majorType << 5;
  if (argument < 24) return Buffer.of(major | argument);
  if (argument < 0x100) return Buffer.of(major | 24, argument);
  if (argument < 0x10000) return Buffer.of(major | 25, argument >> 8, argument & 0xff);
  if (argument <= 0xffffffff) {
    const bytes = Buffer.alloc(5);
    bytes[0] = major | 26;
    bytes.writeUInt32BE(argument, 1);
    return bytes;
  }
  throw new RangeError(`CBOR argument ${argument} needs more than 32 bits`);
}

/** Map entries are written in insertion order; callers insert them in CTAP2 canonical order. */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new RangeError(`CBOR encoder writes integers only, got ${value}`);
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = [...value].flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)]);
  return Buffer.concat([head(5, value.size), ...entries]);
}
