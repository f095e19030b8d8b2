// The bank's hosted registration page: after the customer authorized the enrollment at the bank, it creates the
// biometric credential on this device, registers it with the bank and sends the customer back to the store.
import { attestationJSON, creationOptions } from './webauthn-json.js';

const page = location.pathname.replace(/\/+$/, '');
const show = (id, text) => (document.getElementById(id).textContent = text);
const button = document.getElementById('register');

function say(text, isError = false) {
  show('message', text);
  document.getElementById('message').className = isError ? 'error' : '';
}

async function call(path, body) {
  const response = await fetch(`${page}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) {
    const reasons = json.errors ? json.errors.map((error) => error.detail) : [JSON.stringify(json)];
    throw new Error(reasons.join('; '));
  }
  return json.data;
}

async function register(session) {
  button.disabled = true;
  say('Follow your device to confirm it is you…');
  try {
    const options = await call('options');
    const credential = await navigator.credentials.create({
      publicKey: creationOptions(options.public_key_encoded),
    });
    const enrollment = await call('register', { fido_assertion: attestationJSON(credential) });
    show('status', enrollment.status);
    say('Your biometrics are registered. Taking you back to the store…');
    location.assign(session.return_to_url);
  } catch (error) {
    say(`The registration did not complete: ${error.message}`, true);
    button.disabled = false;
  }
}

try {
  const session = await call('session');
  show('participant', session.participant_name);
  show('enrollment', session.enrollment_id);
  show('status', session.status);
  const back = document.getElementById('back');
  back.href = session.return_to_url;
  back.hidden = false;
  if (session.status === 'awaiting_enrollment') {
    button.disabled = false;
    button.addEventListener('click', () => register(session));
  } else {
    say('There is nothing to register for this enrollment now.');
  }
} catch (error) {
  say(`This registration cannot be shown: ${error.message}`, true);
}
