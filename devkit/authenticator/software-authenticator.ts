import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { z } from 'zod';
import {
  fidoCreationOptionsSchema,
  fidoRequestOptionsSchema,
  type AuthorizeFidoAssertion,
  type RegisterFidoAssertion,
} from '../../src/bank/schemas/fido.js';
import { encodeCbor, type CborValue } from './cbor.js';

const flagBits = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 };
const es256 = -7;
/** A software authenticator is no certified model, so it has no AAGUID of its own. */
const aaguid = Buffer.alloc(16);

const credentialStateSchema = z.object({
  id: z.string().min(1),
  rpId: z.string().min(1),
  userHandle: z.string(),
  /** PKCS#8 DER, base64url. */
  privateKey: z.string().min(1),
  counter: z.number().int().nonnegative(),
});
type CredentialState = z.infer<typeof credentialStateSchema>;

export const softwareAuthenticatorStateSchema = z.object({
  userVerified: z.boolean(),
  credentials: z.array(credentialStateSchema),
});
export type SoftwareAuthenticatorState = z.infer<typeof softwareAuthenticatorStateSchema>;

/** The authenticator refused the bank's options, as a real device would. */
export class AuthenticatorError extends Error {
  override name = 'AuthenticatorError';
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const unpadded = (base64url: string) => base64url.replace(/=+$/, '');

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function uint16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

function parseOptions<T extends z.ZodType>(schema: T, encoded: string, kind: string): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(encoded);
  } catch {
    throw new AuthenticatorError(`${kind} options are not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new AuthenticatorError(`${kind} options are invalid: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** WebAuthn's default RP id is the calling page's host. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    throw new AuthenticatorError(`origin ${origin} is not a URL`);
  }
}

/** COSE_Key for an EC2 P-256 ES256 public key, keys in CTAP2 canonical order. */
function coseKey(publicKey: KeyObject): Buffer {
  // A P-256 SPKI ends with the uncompressed point's x and y, 32 bytes each.
  const point = publicKey.export({ type: 'spki', format: 'der' }).subarray(-64);
  return encodeCbor(
    new Map<CborValue, CborValue>([
      [1, 2],
      [3, es256],
      [-1, 1],
      [-2, point.subarray(0, 32)],
      [-3, point.subarray(32)],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/**
 * A platform authenticator in software (P-256, ES256) that plays the customer's device, and the browser
 * around it, for tests, the demo and benchmarks. It signs for whatever origin it is given, so tests can show
 * the bank refusing a page it does not trust.
 */
export class SoftwareAuthenticator {
  private constructor(
    private readonly userVerified: boolean,
    private credentials: CredentialState[],
  ) {}

  /** `userVerified: false` plays a device whose biometric check did not happen: the UV flag stays clear. */
  static create(options: { userVerified?: boolean } = {}): SoftwareAuthenticator {
    return new SoftwareAuthenticator(options.userVerified ?? true, []);
  }

  static fromJSON(state: SoftwareAuthenticatorState): SoftwareAuthenticator {
    const parsed = softwareAuthenticatorStateSchema.parse(state);
    return new SoftwareAuthenticator(parsed.userVerified, parsed.credentials);
  }

  toJSON(): SoftwareAuthenticatorState {
    return {
      userVerified: this.userVerified,
      credentials: this.credentials.map((credential) => ({ ...credential })),
    };
  }

  private flags(): number {
    return flagBits.userPresent | (this.userVerified ? flagBits.userVerified : 0);
  }

  /**
   * Answers the bank's creation options (the public_key_encoded string) as the register body's
   * fido_assertion. Attestation is packed self-attestation unless the options ask for none.
   */
  createCredential(publicKeyEncoded: string, origin: string): RegisterFidoAssertion {
    const options = parseOptions(fidoCreationOptionsSchema, publicKeyEncoded, 'creation');
    if (!options.pubKeyCredParams.some((param) => param.type === 'public-key' && param.alg === es256)) {
      throw new AuthenticatorError(
        'creation options offer no ES256 (alg -7) key type; this authenticator makes P-256 keys only',
      );
    }
    if (options.authenticatorSelection?.authenticatorAttachment === 'cross-platform') {
      throw new AuthenticatorError(
        'creation options ask for a cross-platform authenticator; this one is a platform authenticator',
      );
    }
    const rpId = options.rp.id ?? hostOf(origin);
    const excluded = new Set((options.excludeCredentials ?? []).map((descriptor) => unpadded(descriptor.id)));
    if (this.credentials.some((credential) => credential.rpId === rpId && excluded.has(credential.id))) {
      throw new AuthenticatorError(
        `this authenticator already holds a credential for RP id ${rpId} that the options exclude`,
      );
    }

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.of(this.flags() | flagBits.attestedCredentialData),
      uint32(0),
      aaguid,
      uint16(credentialId.length),
      credentialId,
      coseKey(publicKey),
    ]);
    const clientDataJSON = clientData('webauthn.create', options.challenge, origin);
    const selfAttested = options.attestation !== undefined && options.attestation !== 'none';
    const attStmt = new Map<CborValue, CborValue>(
      selfAttested
        ? [
            ['alg', es256],
            ['sig', sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey)],
          ]
        : [],
    );
    const attestationObject = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', selfAttested ? 'packed' : 'none'],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );

    const id = credentialId.toString('base64url');
    const userHandle = unpadded(options.user.id);
    // A discoverable credential replaces any earlier one for the same account, as on a real device.
    this.credentials = this.credentials.filter(
      (credential) => credential.rpId !== rpId || credential.userHandle !== userHandle,
    );
    this.credentials.push({
      id,
      rpId,
      userHandle,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64url'),
      counter: 0,
    });
    return {
      id,
      raw_id: id,
      type: 'public-key',
      response: {
        attestation_object: attestationObject.toString('base64url'),
        client_data_JSON: clientDataJSON.toString('base64url'),
      },
    };
  }

  /** Signs the bank's request options as the authorize body's fido_assertion; increments the sign counter. */
  getAssertion(publicKeyEncoded: string, origin: string): AuthorizeFidoAssertion {
    const options = parseOptions(fidoRequestOptionsSchema, publicKeyEncoded, 'request');
    const rpId = options.rpId ?? hostOf(origin);
    const allowed = (options.allowCredentials ?? []).map((descriptor) => unpadded(descriptor.id));
    const credential = this.credentials.find(
      (candidate) => candidate.rpId === rpId && (allowed.length === 0 || allowed.includes(candidate.id)),
    );
    if (!credential) {
      throw new AuthenticatorError(
        allowed.length === 0
          ? `this authenticator holds no credential for RP id ${rpId}`
          : `none of the allowed credentials (${allowed.join(', ')}) is held by this authenticator for RP id ${rpId}`,
      );
    }

    credential.counter += 1;
    const authData = Buffer.concat([sha256(rpId), Buffer.of(this.flags()), uint32(credential.counter)]);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    const key = createPrivateKey({
      key: Buffer.from(credential.privateKey, 'base64url'),
      format: 'der',
      type: 'pkcs8',
    });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key);
    return {
      id: credential.id,
      raw_id: credential.id,
      type: 'public-key',
      response: {
        authenticator_data: authData.toString('base64url'),
        client_data_JSON: clientDataJSON.toString('base64url'),
        signature: signature.toString('base64url'),
        user_handle: credential.userHandle,
      },
    };
  }
}
