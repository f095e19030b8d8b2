// The bank carries WebAuthn's binary members as base64url text inside JSON; the browser's credentials API takes
// and gives ArrayBuffers. These helpers convert between the two, for the widget and the registration page.

export function fromBase64url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0)).buffer;
}

export function toBase64url(buffer) {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const descriptors = (list) =>
  (list ?? []).map((descriptor) => ({ ...descriptor, id: fromBase64url(descriptor.id) }));

/** A payment's `public_key_encoded` as the options of `navigator.credentials.get`. */
export function requestOptions(publicKeyEncoded) {
  const options = JSON.parse(publicKeyEncoded);
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
}

/** An enrollment's `public_key_encoded` as the options of `navigator.credentials.create`. */
export function creationOptions(publicKeyEncoded) {
  const options = JSON.parse(publicKeyEncoded);
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
}

/** A credential's own fields around the ceremony's `response`, as the Banking API's `fido_assertion` holds them. */
function credentialJSON(credential, response) {
  return { id: credential.id, raw_id: toBase64url(credential.rawId), type: credential.type, response };
}

/** An assertion in the shape of the authorize body's `fido_assertion`. */
export function assertionJSON(credential) {
  const { response } = credential;
  return credentialJSON(credential, {
    authenticator_data: toBase64url(response.authenticatorData),
    client_data_JSON: toBase64url(response.clientDataJSON),
    signature: toBase64url(response.signature),
    user_handle: response.userHandle ? toBase64url(response.userHandle) : '',
  });
}

/** A new credential in the shape of the register body's `fido_assertion`. */
export function attestationJSON(credential) {
  const { response } = credential;
  return credentialJSON(credential, {
    attestation_object: toBase64url(response.attestationObject),
    client_data_JSON: toBase64url(response.clientDataJSON),
    transports: response.getTransports ? response.getTransports() : [],
  });
}
