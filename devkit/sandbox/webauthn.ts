import { randomBytes } from 'node:crypto';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { ErrorItem } from '../../src/bank/schemas/errors.js';
import {
  authorizeFidoAssertionSchema,
  registerFidoAssertionSchema,
  type AuthorizeFidoAssertion,
  type FidoCreationOptions,
  type FidoRequestOptions,
  type RegisterFidoAssertion,
} from '../../src/bank/schemas/fido.js';
import {
  FidoRejection,
  attestedAuthenticatorData,
  checkAuthenticatorData,
  checkClientData,
  decodeBase64url,
  fidoPointers,
  libraryStep,
  parseOrReject,
  reject,
} from './webauthn-checks.js';

export interface WebAuthnSettings {
  rpId: string;
  rpName: string;
  /** Pages allowed to run the ceremony (the hosted registration page and the widget). */
  origins: string[];
  timeoutMs: number;
}

export const defaultWebAuthnSettings: WebAuthnSettings = {
  rpId: 'localhost',
  rpName: 'Sandbox Bank',
  origins: ['http://localhost:4010'],
  timeoutMs: 300_000,
};

export interface StoredCredential {
  /** base64url credential id. */
  id: string;
  /** COSE-encoded public key, as found in the attested credential data. */
  publicKey: Uint8Array;
  counter: number;
  transports?: string[];
}

export interface IssuedOptions {
  /** The JSON text the spec carries in `public_key_encoded`. */
  publicKeyEncoded: string;
  /** The challenge to expect back, base64url. */
  challenge: string;
}

export type Verification<T> = ({ ok: true } & T) | { ok: false; errors: ErrorItem[] };

const es256 = -7;
const rs256 = -257;
/** ES256 first: it is what platform authenticators make, and the order is the bank's preference. */
const offeredAlgorithms = [es256, rs256];

const newChallenge = () => randomBytes(32).toString('base64url');

async function settle<T>(ceremony: () => Promise<T>): Promise<Verification<T>> {
  try {
    return { ok: true, ...(await ceremony()) };
  } catch (error) {
    if (error instanceof FidoRejection) return { ok: false, errors: error.errors };
    throw error;
  }
}

/**
 * Registration options for one enrollment. A resident key is required because the spec's authorize body
 * carries a `user_handle`, which authenticators return only for discoverable credentials; `direct`
 * attestation lets the sandbox check the attestation signature rather than take the key on trust.
 */
export async function creationOptions(
  settings: WebAuthnSettings,
  user: { id: string; name: string; displayName: string },
  exclude: StoredCredential[],
): Promise<IssuedOptions> {
  const challenge = newChallenge();
  const options: FidoCreationOptions = {
    timeout: settings.timeoutMs,
    user: { id: Buffer.from(user.id).toString('base64url'), name: user.name, displayName: user.displayName },
    extensions: { credProps: true },
    rp: { id: settings.rpId, name: settings.rpName },
    challenge,
    authenticatorSelection: {
      userVerification: 'required',
      requireResidentKey: true,
      authenticatorAttachment: 'platform',
      residentKey: 'required',
    },
    excludeCredentials: exclude.map((credential) => ({ id: credential.id, type: 'public-key' })),
    pubKeyCredParams: offeredAlgorithms.map((alg) => ({ type: 'public-key', alg })),
    attestation: 'direct',
  };
  return { publicKeyEncoded: JSON.stringify(options), challenge };
}

/** Authorization options for one payment, limited to the enrollment's credentials. */
export async function requestOptions(
  settings: WebAuthnSettings,
  credentials: StoredCredential[],
): Promise<IssuedOptions> {
  const challenge = newChallenge();
  const options: FidoRequestOptions = {
    timeout: settings.timeoutMs,
    challenge,
    allowCredentials: credentials.map((credential) => ({ id: credential.id, type: 'public-key' })),
    rpId: settings.rpId,
    userVerification: 'required',
  };
  return { publicKeyEncoded: JSON.stringify(options), challenge };
}

function checkIds(fido: { id: string; raw_id: string }): void {
  if (fido.raw_id !== fido.id) reject(fidoPointers.rawId, 'raw_id must equal id');
}

function transportsOf(response: Record<string, unknown>): string[] | undefined {
  const transports = response.transports;
  return Array.isArray(transports) && transports.every((item) => typeof item === 'string')
    ? transports
    : undefined;
}

/** Verifies a `register` body's attestation against the challenge issued with the creation options. */
export function verifyRegistration(
  settings: WebAuthnSettings,
  expectedChallenge: string,
  fido: RegisterFidoAssertion,
): Promise<Verification<{ credential: StoredCredential }>> {
  return settle(async () => {
    const assertion = parseOrReject(registerFidoAssertionSchema, fido);
    checkIds(assertion);
    const { attestation_object, client_data_JSON } = assertion.response;
    checkClientData(settings, client_data_JSON, 'webauthn.create', expectedChallenge);
    const authData = checkAuthenticatorData(
      settings,
      attestedAuthenticatorData(attestation_object),
      fidoPointers.attestationObject,
    );
    if (!authData.credentialID || !authData.credentialPublicKey) {
      reject(fidoPointers.attestationObject, 'authenticator data carries no attested credential');
    }
    if (Buffer.from(authData.credentialID).toString('base64url') !== assertion.id.replace(/=+$/, '')) {
      reject(fidoPointers.id, 'id does not match the credential id in the authenticator data');
    }
    const result = await libraryStep(fidoPointers.attestationObject, 'attestation does not verify', () =>
      verifyRegistrationResponse({
        response: {
          id: assertion.id,
          rawId: assertion.raw_id,
          type: 'public-key',
          response: { attestationObject: attestation_object, clientDataJSON: client_data_JSON },
          clientExtensionResults: {},
        },
        expectedChallenge,
        expectedOrigin: settings.origins,
        expectedRPID: settings.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: offeredAlgorithms,
      }),
    );
    if (!result.verified) reject(fidoPointers.attestationObject, 'attestation signature does not verify');
    const { credential } = result.registrationInfo;
    return {
      credential: {
        id: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: transportsOf(assertion.response),
      },
    };
  });
}

/**
 * Verifies an `authorize` body's assertion with the enrollment's stored credential. A counter that did not
 * move past the stored one is refused unless both are zero, which WebAuthn reserves for authenticators
 * without a counter; replays of those are stopped by the single-use challenge.
 */
export function verifyAssertion(
  settings: WebAuthnSettings,
  expectedChallenge: string,
  credential: StoredCredential,
  fido: AuthorizeFidoAssertion,
): Promise<Verification<{ newCounter: number }>> {
  return settle(async () => {
    const assertion = parseOrReject(authorizeFidoAssertionSchema, fido);
    checkIds(assertion);
    if (assertion.id.replace(/=+$/, '') !== credential.id) {
      reject(fidoPointers.id, `credential ${assertion.id} is not the one registered for this enrollment`);
    }
    const { authenticator_data, client_data_JSON, signature, user_handle } = assertion.response;
    checkClientData(settings, client_data_JSON, 'webauthn.get', expectedChallenge);
    const pointer = fidoPointers.authenticatorData;
    const { counter } = checkAuthenticatorData(
      settings,
      decodeBase64url(authenticator_data, pointer),
      pointer,
    );
    if ((counter > 0 || credential.counter > 0) && counter <= credential.counter) {
      reject(
        pointer,
        `counter did not increase (${counter} after ${credential.counter}): possible cloned authenticator or replay`,
      );
    }
    decodeBase64url(signature, fidoPointers.signature);
    const result = await libraryStep(fidoPointers.signature, 'signature does not verify', () =>
      verifyAuthenticationResponse({
        response: {
          id: assertion.id,
          rawId: assertion.raw_id,
          type: 'public-key',
          response: {
            authenticatorData: authenticator_data,
            clientDataJSON: client_data_JSON,
            signature,
            userHandle: user_handle,
          },
          clientExtensionResults: {},
        },
        expectedChallenge,
        expectedOrigin: settings.origins,
        expectedRPID: settings.rpId,
        credential: {
          id: credential.id,
          publicKey: new Uint8Array(credential.publicKey),
          counter: credential.counter,
        },
        requireUserVerification: true,
      }),
    );
    if (!result.verified) reject(fidoPointers.signature, 'signature does not verify');
    return { newCounter: result.authenticationInfo.newCounter };
  });
}
