// The bank's biometric widget: a transparent button laid over the merchant's Pay button. The merchant's page
// sends the authorization options; the customer's click runs the WebAuthn ceremony here, on the bank's origin,
// and the assertion goes back to the page that asked for it.
import { assertionJSON, requestOptions } from './webauthn-json.js';

const source = 'service-biometrics-sdk';

/** The one `get` request waiting for the customer's click. */
let pending = null;

const post = (message, targetOrigin) => window.parent.postMessage({ source, ...message }, targetOrigin);

function failure(requestId, error, message) {
  return { type: 'error', requestId, error, message };
}

window.addEventListener('message', (event) => {
  // Only the page that embeds the widget may drive it; answers go to that page's origin only.
  if (event.source !== window.parent || event.data?.action !== 'get') return;
  const { options, requestId } = event.data;
  if (typeof requestId !== 'string' || typeof options !== 'string') {
    post(failure(requestId, 'TypeError', 'get needs a requestId and the options string'), event.origin);
    return;
  }
  try {
    pending = { requestId, origin: event.origin, publicKey: requestOptions(options) };
  } catch (error) {
    pending = null;
    post(
      failure(requestId, 'DataError', `the options are not WebAuthn request options: ${error.message}`),
      event.origin,
    );
    return;
  }
  post({ type: 'ready', requestId }, event.origin);
});

document.getElementById('authorize').addEventListener('click', async () => {
  const request = pending;
  if (!request) return;
  // One ceremony per request: a retry is a new `get`.
  pending = null;
  try {
    const credential = await navigator.credentials.get({ publicKey: request.publicKey });
    if (!credential) throw new DOMException('no credential was returned', 'NotAllowedError');
    post(
      { type: 'success', requestId: request.requestId, credential: assertionJSON(credential) },
      request.origin,
    );
  } catch (error) {
    post(failure(request.requestId, error.name || 'Error', error.message || String(error)), request.origin);
  }
});

// The embedding page's origin is unknown until its first message; `loaded` carries nothing to protect.
post({ type: 'loaded' }, '*');
