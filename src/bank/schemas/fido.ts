import { z } from 'zod';
import { printable } from './printable.js';

/** WebAuthn binary values travel as base64url text; padding is tolerated because RFC 4648 allows it. */
const base64url = z.string().regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be a base64url string');
const binary = base64url.min(1, 'must not be empty');

/** The spec's "Authorization or registration options": WebAuthn options as a JSON-encoded string. */
export const publicKeyOptionsSchema = z.looseObject({
  public_key_encoded: z.string().min(1),
});
export type PublicKeyOptions = z.infer<typeof publicKeyOptionsSchema>;

const credentialDescriptorSchema = z.looseObject({
  id: binary,
  type: printable,
});

/**
 * What `public_key_encoded` holds for registration. Enumerated WebAuthn members are plain strings because the
 * WebAuthn spec tells clients to ignore values they do not know rather than fail.
 */
export const fidoCreationOptionsSchema = z.looseObject({
  timeout: z.number().int().positive().optional(),
  user: z.looseObject({ id: binary, name: z.string(), displayName: z.string() }),
  extensions: z.looseObject({ credProps: z.boolean().optional() }).optional(),
  rp: z.looseObject({ id: printable.min(1).optional(), name: z.string() }),
  challenge: binary,
  authenticatorSelection: z
    .looseObject({
      userVerification: printable.optional(),
      requireResidentKey: z.boolean().optional(),
      authenticatorAttachment: printable.optional(),
      residentKey: printable.optional(),
    })
    .optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  pubKeyCredParams: z.array(z.looseObject({ type: printable, alg: z.number().int() })).min(1),
  attestation: printable.optional(),
});
export type FidoCreationOptions = z.infer<typeof fidoCreationOptionsSchema>;

/** What `public_key_encoded` holds for a payment (publicKeyCredentialRequestOptions). */
export const fidoRequestOptionsSchema = z.looseObject({
  timeout: z.number().int().positive().optional(),
  challenge: binary,
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  rpId: printable.min(1).optional(),
  userVerification: printable.optional(),
});
export type FidoRequestOptions = z.infer<typeof fidoRequestOptionsSchema>;

const credentialFields = {
  id: binary,
  raw_id: binary,
  type: z.literal('public-key'),
};

export const registerFidoAssertionSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    attestation_object: binary,
    client_data_JSON: binary,
  }),
});
export type RegisterFidoAssertion = z.infer<typeof registerFidoAssertionSchema>;

/** Body of `POST .../enrollments/{enrollment_id}/register`. */
export const registerCredentialRequestSchema = z.looseObject({
  fido_assertion: registerFidoAssertionSchema,
});
export type RegisterCredentialRequest = z.infer<typeof registerCredentialRequestSchema>;

export const authorizeFidoAssertionSchema = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    authenticator_data: binary,
    client_data_JSON: binary,
    signature: binary,
    user_handle: base64url,
  }),
});
export type AuthorizeFidoAssertion = z.infer<typeof authorizeFidoAssertionSchema>;

/**
 * Body of `POST .../payments/{payment_id}/authorize`. The spec shows `riskSignals` as nullable with an
 * unknown inner shape and does not say it is required, so an absent member is accepted too.
 */
export const authorizePaymentRequestSchema = z.looseObject({
  fido_assertion: authorizeFidoAssertionSchema,
  riskSignals: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type AuthorizePaymentRequest = z.infer<typeof authorizePaymentRequestSchema>;
