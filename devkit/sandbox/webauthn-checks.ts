import { createHash } from 'node:crypto';
import { decodeAttestationObject, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import type { ErrorItem } from '../../src/bank/schemas/errors.js';
import { zodErrorItems } from './errors.js';

/** Where in a register or authorize body each WebAuthn member sits, as JSON pointers. */
export const fidoPointers = {
  assertion: '/fido_assertion',
  id: '/fido_assertion/id',
  rawId: '/fido_assertion/raw_id',
  clientData: '/fido_assertion/response/client_data_JSON',
  attestationObject: '/fido_assertion/response/attestation_object',
  authenticatorData: '/fido_assertion/response/authenticator_data',
  signature: '/fido_assertion/response/signature',
} as const;

export const fidoErrorTitle = 'INVALID_FIDO_ASSERTION';

/** A refused ceremony; thrown inside the checks and turned into errors-list items at the module boundary. */
export class FidoRejection extends Error {
  constructor(readonly errors: ErrorItem[]) {
    super(errors.map((error) => error.detail).join('; '));
    this.name = 'FidoRejection';
  }
}

export function reject(pointer: string, detail: string): never {
  throw new FidoRejection([{ title: fidoErrorTitle, detail, source: { pointer } }]);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function parseOrReject<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new FidoRejection(zodErrorItems(parsed.error, fidoPointers.assertion));
  return parsed.data;
}

/**
 * Strict decoding: Buffer.from silently skips characters outside the alphabet, which would hide tampering.
 */
export function decodeBase64url(value: string, pointer: string): Uint8Array<ArrayBuffer> {
  const unpadded = value.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length % 4 === 1) {
    reject(pointer, 'is not a valid base64url string');
  }
  return new Uint8Array(Buffer.from(unpadded, 'base64url'));
}

export const sha256 = (data: Uint8Array | string) =>
  new Uint8Array(createHash('sha256').update(data).digest());

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

export interface RelyingParty {
  rpId: string;
  origins: string[];
}

const clientDataSchema = z.looseObject({ type: z.string(), challenge: z.string(), origin: z.string() });

/**
 * Checks the browser's view of the ceremony: its type, the challenge the bank issued and the page's origin.
 */
export function checkClientData(
  rp: RelyingParty,
  encoded: string,
  expectedType: 'webauthn.create' | 'webauthn.get',
  expectedChallenge: string,
): void {
  const pointer = fidoPointers.clientData;
  const bytes = decodeBase64url(encoded, pointer);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    reject(pointer, 'client data is not JSON');
  }
  const parsed = clientDataSchema.safeParse(json);
  if (!parsed.success) reject(pointer, 'client data lacks a string type, challenge or origin');
  const { type, challenge, origin } = parsed.data;
  if (type !== expectedType) reject(pointer, `client data type is ${type}, expected ${expectedType}`);
  if (challenge !== expectedChallenge) reject(pointer, 'challenge does not match the one issued');
  if (!rp.origins.includes(origin)) reject(pointer, `origin ${origin} is not allowed`);
}

export type AuthenticatorData = ReturnType<typeof parseAuthenticatorData>;

/** Parses authenticator data and checks the RP id hash and that the customer was present and verified. */
export function checkAuthenticatorData(
  rp: RelyingParty,
  bytes: Uint8Array<ArrayBuffer>,
  pointer: string,
): AuthenticatorData {
  let data: AuthenticatorData;
  try {
    data = parseAuthenticatorData(bytes);
  } catch (error) {
    reject(pointer, `authenticator data is malformed: ${messageOf(error)}`);
  }
  if (!sameBytes(data.rpIdHash, sha256(rp.rpId))) {
    reject(pointer, `authenticator data is for another RP id (expected ${rp.rpId})`);
  }
  if (!data.flags.up) reject(pointer, 'user presence flag is not set');
  if (!data.flags.uv) {
    reject(pointer, 'user verification flag is not set: the customer was not verified (biometrics or PIN)');
  }
  return data;
}

/** The attestation object's authenticator data, once the CBOR is known to be a well-formed attestation. */
export function attestedAuthenticatorData(encoded: string): Uint8Array<ArrayBuffer> {
  const pointer = fidoPointers.attestationObject;
  const bytes = decodeBase64url(encoded, pointer);
  let decoded: unknown;
  try {
    decoded = decodeAttestationObject(bytes);
  } catch (error) {
    reject(pointer, `attestation object is not valid CBOR: ${messageOf(error)}`);
  }
  const authData = decoded instanceof Map ? decoded.get('authData') : undefined;
  if (
    !(decoded instanceof Map) ||
    typeof decoded.get('fmt') !== 'string' ||
    !(decoded.get('attStmt') instanceof Map) ||
    !(authData instanceof Uint8Array)
  ) {
    reject(pointer, 'attestation object is not a CBOR map of fmt, attStmt and authData');
  }
  return new Uint8Array(authData);
}

/** Runs a library verification step; whatever it throws becomes one errors-list item at `pointer`. */
export async function libraryStep<T>(pointer: string, prefix: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    reject(pointer, `${prefix}: ${messageOf(error)}`);
  }
}
