import { isoCBOR } from '@simplewebauthn/server/helpers';
import { encodeCbor, type CborValue } from '../../devkit/authenticator/cbor.js';
import {
  AuthenticatorError,
  SoftwareAuthenticator,
} from '../../devkit/authenticator/software-authenticator.js';
import type { ErrorItem } from '../../src/bank/schemas/errors.js';
import {
  fidoCreationOptionsSchema,
  fidoRequestOptionsSchema,
  publicKeyOptionsSchema,
  type AuthorizeFidoAssertion,
  type RegisterFidoAssertion,
} from '../../src/bank/schemas/fido.js';
import {
  sandboxAuthorizeRequestSchema,
  sandboxRegisterRequestSchema,
} from '../../devkit/sandbox/fido-requests.js';
import {
  creationOptions,
  defaultWebAuthnSettings as settings,
  requestOptions,
  verifyAssertion,
  verifyRegistration,
  type StoredCredential,
} from '../../devkit/sandbox/webauthn.js';

const origin = 'http://localhost:4010';
const user = { id: 'enrollment-1', name: 'ana@example.com', displayName: 'Ana' };
const pointer = {
  id: '/fido_assertion/id',
  rawId: '/fido_assertion/raw_id',
  clientData: '/fido_assertion/response/client_data_JSON',
  attestationObject: '/fido_assertion/response/attestation_object',
  authenticatorData: '/fido_assertion/response/authenticator_data',
  signature: '/fido_assertion/response/signature',
};

type Outcome = { ok: true } | { ok: false; errors: ErrorItem[] };

function expectRefused(outcome: Outcome, where: string, detail: string | RegExp): void {
  expect(outcome.ok).toBe(false);
  const errors = outcome.ok ? [] : outcome.errors;
  expect(errors).toHaveLength(1);
  expect(errors[0]?.source?.pointer).toBe(where);
  expect(errors[0]?.title).toBe('INVALID_FIDO_ASSERTION');
  if (typeof detail === 'string') expect(errors[0]?.detail).toBe(detail);
  else expect(errors[0]?.detail).toMatch(detail);
}

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');
const clientDataOf = (fido: { response: { client_data_JSON: string } }) =>
  JSON.parse(unb64(fido.response.client_data_JSON).toString('utf8')) as Record<string, unknown>;

function patchOptions(encoded: string, patch: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(encoded) as object), ...patch });
}

function withRegisterResponse(
  fido: RegisterFidoAssertion,
  patch: Partial<RegisterFidoAssertion['response']>,
): RegisterFidoAssertion {
  return { ...fido, response: { ...fido.response, ...patch } };
}

function withAuthorizeResponse(
  fido: AuthorizeFidoAssertion,
  patch: Partial<AuthorizeFidoAssertion['response']>,
): AuthorizeFidoAssertion {
  return { ...fido, response: { ...fido.response, ...patch } };
}

async function register(authenticator = SoftwareAuthenticator.create()) {
  const options = await creationOptions(settings, user, []);
  const fido = authenticator.createCredential(options.publicKeyEncoded, origin);
  const outcome = await verifyRegistration(settings, options.challenge, fido);
  if (!outcome.ok) throw new Error(`registration refused: ${JSON.stringify(outcome.errors)}`);
  return { authenticator, credential: outcome.credential };
}

async function sign(authenticator: SoftwareAuthenticator, credential: StoredCredential, from = origin) {
  const options = await requestOptions(settings, [credential]);
  return { challenge: options.challenge, fido: authenticator.getAssertion(options.publicKeyEncoded, from) };
}

/** Rebuilds an attestation object with some of its members replaced. */
function reattest(fido: RegisterFidoAssertion, replace: (map: Map<CborValue, CborValue>) => void) {
  const decoded = isoCBOR.decodeFirst<Map<CborValue, CborValue>>(unb64(fido.response.attestation_object));
  replace(decoded);
  return withRegisterResponse(fido, { attestation_object: b64(encodeCbor(decoded)) });
}

describe('WebAuthn options the sandbox bank issues', () => {
  it('creation options carry exactly the members the spec lists, ES256 first, and a fresh challenge', async () => {
    const excluded: StoredCredential = { id: 'AAEC', publicKey: new Uint8Array(), counter: 3 };
    const first = await creationOptions(settings, user, [excluded]);
    const second = await creationOptions(settings, user, []);
    const options = fidoCreationOptionsSchema.parse(JSON.parse(first.publicKeyEncoded));

    expect(Object.keys(options).sort()).toEqual(
      [
        'attestation',
        'authenticatorSelection',
        'challenge',
        'excludeCredentials',
        'extensions',
        'pubKeyCredParams',
        'rp',
        'timeout',
        'user',
      ].sort(),
    );
    expect(options.challenge).toBe(first.challenge);
    expect(unb64(first.challenge)).toHaveLength(32);
    expect(second.challenge).not.toBe(first.challenge);
    expect(options.timeout).toBe(300_000);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Sandbox Bank' });
    expect(options.user).toEqual({ id: b64(user.id), name: user.name, displayName: user.displayName });
    expect(options.extensions).toEqual({ credProps: true });
    expect(options.authenticatorSelection).toEqual({
      userVerification: 'required',
      requireResidentKey: true,
      authenticatorAttachment: 'platform',
      residentKey: 'required',
    });
    expect(options.excludeCredentials).toEqual([{ id: 'AAEC', type: 'public-key' }]);
    expect(options.pubKeyCredParams[0]).toEqual({ type: 'public-key', alg: -7 });
    expect(options.attestation).toBe('direct');
    expect(publicKeyOptionsSchema.parse({ public_key_encoded: first.publicKeyEncoded })).toBeTruthy();
  });

  it('request options carry exactly the members the spec lists and allow only the given credentials', async () => {
    const credential: StoredCredential = { id: 'q83v', publicKey: new Uint8Array(), counter: 0 };
    const issued = await requestOptions(settings, [credential]);
    const options = fidoRequestOptionsSchema.parse(JSON.parse(issued.publicKeyEncoded));

    expect(Object.keys(options).sort()).toEqual(
      ['allowCredentials', 'challenge', 'rpId', 'timeout', 'userVerification'].sort(),
    );
    expect(options).toEqual({
      timeout: 300_000,
      challenge: issued.challenge,
      allowCredentials: [{ id: 'q83v', type: 'public-key' }],
      rpId: 'localhost',
      userVerification: 'required',
    });
    expect((await requestOptions(settings, [credential])).challenge).not.toBe(issued.challenge);
  });
});

describe('registration', () => {
  it('accepts a packed self-attested credential and keeps its ES256 public key', async () => {
    const authenticator = SoftwareAuthenticator.create();
    const options = await creationOptions(settings, user, []);
    const fido = authenticator.createCredential(options.publicKeyEncoded, origin);
    const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(unb64(fido.response.attestation_object));
    expect(attestation.get('fmt')).toBe('packed');

    const outcome = await verifyRegistration(settings, options.challenge, fido);

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.credential.id).toBe(fido.id);
    expect(outcome.credential.counter).toBe(0);
    const key = isoCBOR.decodeFirst<Map<number, unknown>>(new Uint8Array(outcome.credential.publicKey));
    // COSE_Key: kty EC2, alg ES256, crv P-256, 32-byte x and y.
    expect([key.get(1), key.get(3), key.get(-1)]).toEqual([2, -7, 1]);
    expect([(key.get(-2) as Uint8Array).length, (key.get(-3) as Uint8Array).length]).toEqual([32, 32]);
  });

  it("accepts 'none' attestation when the options ask for none, and keeps transports the client reports", async () => {
    const authenticator = SoftwareAuthenticator.create();
    const options = await creationOptions(settings, user, []);
    const fido = authenticator.createCredential(
      patchOptions(options.publicKeyEncoded, { attestation: 'none' }),
      origin,
    );
    const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(unb64(fido.response.attestation_object));
    expect(attestation.get('fmt')).toBe('none');

    const outcome = await verifyRegistration(settings, options.challenge, {
      ...fido,
      response: { ...fido.response, transports: ['internal'] },
    });

    expect(outcome.ok && outcome.credential.transports).toEqual(['internal']);
  });

  it('refuses a challenge other than the one issued', async () => {
    const options = await creationOptions(settings, user, []);
    const other = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);

    const outcome = await verifyRegistration(settings, other.challenge, fido);

    expectRefused(outcome, pointer.clientData, 'challenge does not match the one issued');
  });

  it('refuses an origin the bank does not list', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(
      options.publicKeyEncoded,
      'http://evil.test',
    );

    const outcome = await verifyRegistration(settings, options.challenge, fido);

    expectRefused(outcome, pointer.clientData, 'origin http://evil.test is not allowed');
  });

  it('refuses a credential made for another RP id', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(
      patchOptions(options.publicKeyEncoded, { rp: { id: 'evil.test', name: 'Evil' } }),
      origin,
    );

    const outcome = await verifyRegistration(settings, options.challenge, fido);

    expectRefused(
      outcome,
      pointer.attestationObject,
      'authenticator data is for another RP id (expected localhost)',
    );
  });

  it('refuses a registration without user verification', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create({ userVerified: false }).createCredential(
      options.publicKeyEncoded,
      origin,
    );

    const outcome = await verifyRegistration(settings, options.challenge, fido);

    expectRefused(outcome, pointer.attestationObject, /^user verification flag is not set/);
  });

  it('refuses a tampered attestation signature', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);
    const tampered = reattest(fido, (map) => {
      const statement = map.get('attStmt') as Map<CborValue, CborValue>;
      const signature = Buffer.from(statement.get('sig') as Uint8Array);
      signature[10] = (signature[10] ?? 0) ^ 0x01;
      statement.set('sig', signature);
    });

    const outcome = await verifyRegistration(settings, options.challenge, tampered);

    expectRefused(outcome, pointer.attestationObject, 'attestation signature does not verify');
  });

  it('refuses an attestation the library finds inconsistent, with its reason', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);
    const mislabelled = reattest(fido, (map) => map.set('fmt', 'none'));

    const outcome = await verifyRegistration(settings, options.challenge, mislabelled);

    expectRefused(
      outcome,
      pointer.attestationObject,
      /^attestation does not verify: .*unexpected attestation/i,
    );
  });

  it('refuses an id other than the attested credential id, and a raw_id other than the id', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);

    expectRefused(
      await verifyRegistration(settings, options.challenge, { ...fido, id: 'AAAA', raw_id: 'AAAA' }),
      pointer.id,
      'id does not match the credential id in the authenticator data',
    );
    expectRefused(
      await verifyRegistration(settings, options.challenge, { ...fido, raw_id: 'AAAA' }),
      pointer.rawId,
      'raw_id must equal id',
    );
  });

  it('refuses client data made for an assertion', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);
    const clientData = { ...clientDataOf(fido), type: 'webauthn.get' };

    const outcome = await verifyRegistration(
      settings,
      options.challenge,
      withRegisterResponse(fido, { client_data_JSON: b64(JSON.stringify(clientData)) }),
    );

    expectRefused(outcome, pointer.clientData, 'client data type is webauthn.get, expected webauthn.create');
  });

  it('refuses authenticator data without an attested credential', async () => {
    const { authenticator, credential } = await register();
    const { fido: assertion } = await sign(authenticator, credential);
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);
    const noCredential = reattest(fido, (map) => {
      map.set('fmt', 'none');
      map.set('attStmt', new Map());
      map.set('authData', unb64(assertion.response.authenticator_data));
    });

    const outcome = await verifyRegistration(settings, options.challenge, noCredential);

    expectRefused(outcome, pointer.attestationObject, 'authenticator data carries no attested credential');
  });

  it.each([
    ['bytes that are not CBOR', b64(Uint8Array.of(0xff, 0x00)), /^attestation object is not valid CBOR/],
    [
      'CBOR that is not an attestation',
      b64(Uint8Array.of(0x01)),
      'attestation object is not a CBOR map of fmt, attStmt and authData',
    ],
    [
      'an attestation whose authenticator data is too short',
      b64(
        encodeCbor(
          new Map<CborValue, CborValue>([
            ['fmt', 'none'],
            ['attStmt', new Map()],
            ['authData', Buffer.alloc(10)],
          ]),
        ),
      ),
      /^authenticator data is malformed: .*10 bytes/,
    ],
    ['a string of impossible length', 'abcde', 'is not a valid base64url string'],
  ])('refuses %s as attestation_object without throwing', async (_case, attestationObject, detail) => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);

    const outcome = await verifyRegistration(
      settings,
      options.challenge,
      withRegisterResponse(fido, { attestation_object: attestationObject }),
    );

    expectRefused(outcome, pointer.attestationObject, detail);
  });

  it.each([
    ['text that is not JSON', b64('{not json'), 'client data is not JSON'],
    [
      'JSON without the ceremony members',
      b64(JSON.stringify({ type: 1 })),
      /lacks a string type, challenge or origin/,
    ],
  ])('refuses %s as client_data_JSON', async (_case, clientData, detail) => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);

    const outcome = await verifyRegistration(
      settings,
      options.challenge,
      withRegisterResponse(fido, { client_data_JSON: clientData }),
    );

    expectRefused(outcome, pointer.clientData, detail);
  });

  it('answers wrong types and non-base64url text with one validation item per member', async () => {
    const garbage = {
      id: 42,
      raw_id: 'a+b/',
      type: 'password',
      response: { attestation_object: '', client_data_JSON: null },
    } as unknown as RegisterFidoAssertion;

    const outcome = await verifyRegistration(settings, 'challenge', garbage);

    expect(outcome.ok).toBe(false);
    const pointers = outcome.ok ? [] : outcome.errors.map((error) => error.source?.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/fido_assertion/id',
        '/fido_assertion/raw_id',
        '/fido_assertion/type',
        '/fido_assertion/response/attestation_object',
        '/fido_assertion/response/client_data_JSON',
      ]),
    );
    expect(outcome.ok || outcome.errors.every((error) => error.title === 'INVALID_PARAMETER')).toBe(true);
    expect((await verifyRegistration(settings, 'c', null as unknown as RegisterFidoAssertion)).ok).toBe(
      false,
    );
  });
});

describe('payment authorization', () => {
  it('accepts an assertion signed by the registered credential and reports the new counter', async () => {
    const { authenticator, credential } = await register();
    const first = await sign(authenticator, credential);

    const outcome = await verifyAssertion(settings, first.challenge, credential, first.fido);

    expect(outcome).toEqual({ ok: true, newCounter: 1 });
    expect(first.fido.response.user_handle).toBe(b64(user.id));
    const second = await sign(authenticator, credential);
    const next = await verifyAssertion(
      settings,
      second.challenge,
      { ...credential, counter: 1 },
      second.fido,
    );
    expect(next).toEqual({ ok: true, newCounter: 2 });
  });

  it('refuses a tampered signature', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);
    const signature = unb64(fido.response.signature);
    signature[10] = (signature[10] ?? 0) ^ 0x01;

    const outcome = await verifyAssertion(
      settings,
      challenge,
      credential,
      withAuthorizeResponse(fido, { signature: b64(signature) }),
    );

    expectRefused(outcome, pointer.signature, 'signature does not verify');
  });

  it('refuses a signature that is not even an ECDSA signature', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);

    const outcome = await verifyAssertion(
      settings,
      challenge,
      credential,
      withAuthorizeResponse(fido, { signature: b64('garbage') }),
    );

    expectRefused(outcome, pointer.signature, /^signature does not verify: /);
  });

  it('refuses a challenge other than the one issued', async () => {
    const { authenticator, credential } = await register();
    const { fido } = await sign(authenticator, credential);
    const other = await requestOptions(settings, [credential]);

    const outcome = await verifyAssertion(settings, other.challenge, credential, fido);

    expectRefused(outcome, pointer.clientData, 'challenge does not match the one issued');
  });

  it('refuses an origin the bank does not list', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential, 'http://evil.test');

    const outcome = await verifyAssertion(settings, challenge, credential, fido);

    expectRefused(outcome, pointer.clientData, 'origin http://evil.test is not allowed');
  });

  it('refuses an assertion made for another RP id', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);

    const outcome = await verifyAssertion({ ...settings, rpId: 'bank.example' }, challenge, credential, fido);

    expectRefused(
      outcome,
      pointer.authenticatorData,
      'authenticator data is for another RP id (expected bank.example)',
    );
  });

  it('refuses a replayed assertion: the counter did not increase', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);
    const first = await verifyAssertion(settings, challenge, credential, fido);
    expect(first.ok).toBe(true);
    const stored = { ...credential, counter: first.ok ? first.newCounter : 0 };

    const replay = await verifyAssertion(settings, challenge, stored, fido);

    expectRefused(
      replay,
      pointer.authenticatorData,
      'counter did not increase (1 after 1): possible cloned authenticator or replay',
    );
  });

  it('refuses a cloned authenticator that signs with a counter already seen', async () => {
    const { authenticator, credential } = await register();
    const clone = SoftwareAuthenticator.fromJSON(authenticator.toJSON());
    const original = await sign(authenticator, credential);
    const first = await verifyAssertion(settings, original.challenge, credential, original.fido);
    expect(first).toEqual({ ok: true, newCounter: 1 });

    const cloned = await sign(clone, credential);
    const outcome = await verifyAssertion(
      settings,
      cloned.challenge,
      { ...credential, counter: 1 },
      cloned.fido,
    );

    expectRefused(outcome, pointer.authenticatorData, /^counter did not increase .*cloned authenticator/);
  });

  it('refuses an assertion without user verification', async () => {
    const { authenticator, credential } = await register();
    const unverified = SoftwareAuthenticator.fromJSON({ ...authenticator.toJSON(), userVerified: false });
    const { challenge, fido } = await sign(unverified, credential);

    const outcome = await verifyAssertion(settings, challenge, credential, fido);

    expectRefused(outcome, pointer.authenticatorData, /^user verification flag is not set/);
  });

  it('refuses a credential other than the enrollment’s', async () => {
    const { credential } = await register();
    const stranger = await register();
    const { challenge, fido } = await sign(stranger.authenticator, stranger.credential);

    const outcome = await verifyAssertion(settings, challenge, credential, fido);

    expectRefused(outcome, pointer.id, `credential ${fido.id} is not the one registered for this enrollment`);
  });

  it('refuses client data made for a registration', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);
    const clientData = { ...clientDataOf(fido), type: 'webauthn.create' };

    const outcome = await verifyAssertion(
      settings,
      challenge,
      credential,
      withAuthorizeResponse(fido, { client_data_JSON: b64(JSON.stringify(clientData)) }),
    );

    expectRefused(outcome, pointer.clientData, 'client data type is webauthn.create, expected webauthn.get');
  });

  it('refuses garbage authenticator data, signatures and bodies without throwing', async () => {
    const { authenticator, credential } = await register();
    const { challenge, fido } = await sign(authenticator, credential);

    expectRefused(
      await verifyAssertion(
        settings,
        challenge,
        credential,
        withAuthorizeResponse(fido, { authenticator_data: b64('short') }),
      ),
      pointer.authenticatorData,
      /^authenticator data is malformed/,
    );
    expectRefused(
      await verifyAssertion(
        settings,
        challenge,
        credential,
        withAuthorizeResponse(fido, { signature: 'abcde' }),
      ),
      pointer.signature,
      'is not a valid base64url string',
    );
    const wrongTypes = {
      ...fido,
      response: { ...fido.response, signature: 7 },
    } as unknown as AuthorizeFidoAssertion;
    const typed = await verifyAssertion(settings, challenge, credential, wrongTypes);
    expect(typed.ok ? [] : typed.errors.map((error) => error.source?.pointer)).toEqual([pointer.signature]);
    expect(
      (await verifyAssertion(settings, challenge, credential, 'x' as unknown as AuthorizeFidoAssertion)).ok,
    ).toBe(false);
  });
});

describe('software authenticator', () => {
  it('survives a JSON round trip and keeps counting', async () => {
    const { authenticator, credential } = await register();
    await sign(authenticator, credential);
    const restored = SoftwareAuthenticator.fromJSON(JSON.parse(JSON.stringify(authenticator)));

    const { challenge, fido } = await sign(restored, credential);

    expect(restored.toJSON().credentials[0]?.counter).toBe(2);
    expect(await verifyAssertion(settings, challenge, { ...credential, counter: 1 }, fido)).toEqual({
      ok: true,
      newCounter: 2,
    });
  });

  it('refuses request options whose RP id or allowed credentials are not its own', async () => {
    const { authenticator, credential } = await register();
    const options = await requestOptions(settings, [credential]);

    expect(() =>
      authenticator.getAssertion(patchOptions(options.publicKeyEncoded, { rpId: 'evil.test' }), origin),
    ).toThrow(
      new AuthenticatorError(
        `none of the allowed credentials (${credential.id}) is held by this authenticator for RP id evil.test`,
      ),
    );
    expect(() =>
      authenticator.getAssertion(
        patchOptions(options.publicKeyEncoded, { allowCredentials: [{ id: 'AAAA', type: 'public-key' }] }),
        origin,
      ),
    ).toThrow('none of the allowed credentials (AAAA) is held by this authenticator for RP id localhost');
    expect(() =>
      authenticator.getAssertion(
        patchOptions(options.publicKeyEncoded, { rpId: 'evil.test', allowCredentials: [] }),
        origin,
      ),
    ).toThrow('this authenticator holds no credential for RP id evil.test');
  });

  it('uses a discoverable credential for the page’s host when the options name no RP id or credential', async () => {
    const { authenticator, credential } = await register();
    const options = await requestOptions(settings, []);
    const encoded = JSON.stringify({ challenge: options.challenge });

    const fido = authenticator.getAssertion(encoded, origin);

    expect(fido.id).toBe(credential.id);
    expect(await verifyAssertion(settings, options.challenge, credential, fido)).toEqual({
      ok: true,
      newCounter: 1,
    });
    expect(() => authenticator.getAssertion(encoded, 'not a url')).toThrow('origin not a url is not a URL');
  });

  it('refuses creation options it cannot or must not answer', async () => {
    const { authenticator, credential } = await register();
    const options = await creationOptions(settings, user, [credential]);
    const fresh = await creationOptions(settings, user, []);

    expect(() => authenticator.createCredential(options.publicKeyEncoded, origin)).toThrow(
      'this authenticator already holds a credential for RP id localhost that the options exclude',
    );
    expect(() =>
      authenticator.createCredential(
        patchOptions(fresh.publicKeyEncoded, { pubKeyCredParams: [{ type: 'public-key', alg: -257 }] }),
        origin,
      ),
    ).toThrow(/no ES256 \(alg -7\)/);
    expect(() =>
      authenticator.createCredential(
        patchOptions(fresh.publicKeyEncoded, {
          authenticatorSelection: { authenticatorAttachment: 'cross-platform' },
        }),
        origin,
      ),
    ).toThrow(/cross-platform/);
    expect(() => authenticator.createCredential('{', origin)).toThrow('creation options are not JSON');
    expect(() => authenticator.createCredential('{"challenge": 5}', origin)).toThrow(
      /^creation options are invalid:/,
    );
  });

  it('replaces an account’s credential when the same account registers again, taking the RP id from the page', async () => {
    const { authenticator, credential } = await register();
    const options = await creationOptions(settings, user, []);
    const withoutRpId = JSON.parse(options.publicKeyEncoded) as { rp: Record<string, unknown> };
    delete withoutRpId.rp.id;

    const replacement = authenticator.createCredential(JSON.stringify(withoutRpId), origin);

    expect(authenticator.toJSON().credentials.map((held) => held.id)).toEqual([replacement.id]);
    const request = await requestOptions(settings, [credential]);
    expect(() => authenticator.getAssertion(request.publicKeyEncoded, origin)).toThrow(AuthenticatorError);
  });
});

describe('authenticator CBOR encoder', () => {
  it('writes integers, strings, bytes and maps that a standard decoder reads back', () => {
    const value = new Map<CborValue, CborValue>([
      [0, 23],
      [1, 24],
      [2, 255],
      [3, 256],
      [4, 65_535],
      [5, 65_536],
      [6, 4_294_967_295],
      [-1, -1],
      [-2, -257],
      ['text', 'pix'],
      ['bytes', Uint8Array.of(1, 2, 3)],
    ]);

    const decoded = isoCBOR.decodeFirst<Map<CborValue, CborValue>>(new Uint8Array(encodeCbor(value)));

    expect([...decoded.entries()]).toEqual([...value.entries()]);
    expect(encodeCbor(-7)).toEqual(Buffer.of(0x26));
    expect(encodeCbor(new Map([[1, 2]]))).toEqual(Buffer.of(0xa1, 0x01, 0x02));
  });

  it('refuses what it cannot write', () => {
    expect(() => encodeCbor(1.5)).toThrow(RangeError);
    expect(() => encodeCbor(2 ** 32)).toThrow(/more than 32 bits/);
  });
});

describe('sandbox FIDO request bodies', () => {
  it('accepts the guide spelling client_data_json and hands over the reference spelling', async () => {
    const { authenticator, credential } = await register();
    const { fido } = await sign(authenticator, credential);
    const { client_data_JSON, ...response } = fido.response;

    const parsed = sandboxAuthorizeRequestSchema.parse({
      fido_assertion: { ...fido, response: { ...response, client_data_json: client_data_JSON } },
      riskSignals: null,
    });

    expect(parsed.fido_assertion.response.client_data_JSON).toBe(client_data_JSON);
    expect(parsed.fido_assertion.response).not.toHaveProperty('client_data_json');
    expect(parsed.riskSignals).toBeNull();
  });

  it('prefers the reference spelling when both are sent and leaves other bodies to the schema', async () => {
    const options = await creationOptions(settings, user, []);
    const fido = SoftwareAuthenticator.create().createCredential(options.publicKeyEncoded, origin);

    const parsed = sandboxRegisterRequestSchema.parse({
      fido_assertion: { ...fido, response: { ...fido.response, client_data_json: 'ignored' } },
    });

    expect(parsed.fido_assertion.response.client_data_JSON).toBe(fido.response.client_data_JSON);
    expect(sandboxAuthorizeRequestSchema.safeParse({ fido_assertion: { response: 'x' } }).success).toBe(
      false,
    );
    expect(sandboxRegisterRequestSchema.safeParse([]).success).toBe(false);
    const missing = sandboxAuthorizeRequestSchema.safeParse({});
    expect(missing.success ? [] : missing.error.issues.map((issue) => issue.path.join('/'))).toEqual([
      'fido_assertion',
    ]);
  });
});
