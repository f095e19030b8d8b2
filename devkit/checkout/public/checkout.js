// The reference checkout's browser side: no framework, only the merchant's own backend (/api/...) and the bank's
// widget in an iframe. The widget runs WebAuthn on the bank's origin; the page only relays options and assertion.

const widgetSource = 'service-biometrics-sdk';
const enrollmentOutcomes = ['authorized', 'rejected', 'revoked', 'expired', 'blocked'];

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const money = (cents) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
const say = (text) => ($('message').textContent = text);
const paymentStatus = (text) => ($('payment-status').textContent = text);

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error ?? `${method} ${path} answered ${response.status}`);
  return json;
}

/** Runs a click handler, showing its failure instead of losing it. */
const run = (action) => () => action().catch((error) => say(error.message));

// A real page would use a device fingerprinting library here; this one keeps a random id per browser.
function fingerprint() {
  let id = localStorage.getItem('checkout-device-fingerprint');
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem('checkout-device-fingerprint', id);
  }
  return id;
}

function timezoneOffset() {
  const minutes = -new Date().getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
}

/** The backend's settings, the order and customer, and this browser's device at the bank, once `start` ran. */
let config = null;
let widgetOrigin = null;
let deviceId = null;

/** The payment being authorized: its reference, the widget's options and the pending widget request. */
let payment = null;
let widget = null;

async function showParticipants() {
  const participants = await api('GET', '/api/participants');
  const list = $('participants');
  list.replaceChildren();
  for (const participant of participants) {
    const item = document.createElement('li');
    item.dataset.participant = participant.name;
    const name = document.createElement('span');
    name.textContent = participant.name;
    const button = document.createElement('button');
    button.type = 'button';
    if (participant.enrolled) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'biometrics ready';
      name.append(badge);
      button.textContent = 'Pay with biometrics';
      button.addEventListener(
        'click',
        run(() => preparePayment(participant)),
      );
    } else {
      button.textContent = participant.available ? 'Enable biometrics' : 'Unavailable';
      button.className = 'secondary';
      button.disabled = !participant.available;
      button.addEventListener(
        'click',
        run(() => enroll(participant)),
      );
    }
    item.append(name, button);
    list.append(item);
  }
  return participants;
}

async function enroll(participant) {
  say('');
  const { redirectUrl } = await api('POST', '/api/enrollments', { participantId: participant.id });
  location.assign(redirectUrl);
}

/** Back from the bank: follows the enrollment until the bank has decided. */
async function finishEnrollment(participantId) {
  history.replaceState(null, '', '/');
  say('Finishing the enrollment with your bank…');
  const query = `participantId=${encodeURIComponent(participantId)}`;
  let state = await api('GET', `/api/enrollment?${query}`);
  while (!enrollmentOutcomes.includes(state.phase)) {
    await sleep(1000);
    state = await api('GET', `/api/enrollment?${query}`);
  }
  say(state.phase === 'authorized' ? '' : `The enrollment ended ${state.phase}: ${state.reason}`);
  return state;
}

async function preparePayment(participant) {
  say('');
  $('receipt').hidden = true;
  $('retry').hidden = true;
  $('payment').hidden = false;
  $('payment-bank').textContent = participant.name;
  $('pay').textContent = `Pay ${money(config.order.amountCents)}`;
  $('pay').disabled = true;
  paymentStatus('Creating the payment…');
  // Only the order's id: the backend holds its price and description, and knows the customer from the session.
  const created = await api('POST', '/api/payments', {
    orderId: config.order.id,
    enrollmentId: participant.enrollmentId,
  });
  payment = {
    externalId: created.externalId,
    amountCents: created.amountCents,
    options: created.publicKeyEncoded,
    requestId: null,
  };
  $('payment-reference').textContent = created.externalId;
  mountWidget();
}

function mountWidget() {
  widget?.remove();
  widget = document.createElement('iframe');
  widget.id = 'widget';
  widget.title = 'Authorize with biometrics';
  widget.allow = 'publickey-credentials-get *; publickey-credentials-create *';
  widget.src = config.widgetUrl;
  $('pay').after(widget);
  paymentStatus("Loading your bank's biometric check…");
}

function askWidget() {
  payment.requestId = crypto.randomUUID();
  widget.contentWindow.postMessage(
    { action: 'get', options: payment.options, requestId: payment.requestId },
    widgetOrigin,
  );
}

function lockPay() {
  $('pay').disabled = true;
  widget?.classList.remove('ready');
}

async function authorize(credential) {
  lockPay();
  paymentStatus('Authorizing with your bank…');
  const path = `/api/payments/${encodeURIComponent(payment.externalId)}`;
  const answer = await api('POST', `${path}/authorize`, { assertion: credential });
  if (!answer.ok) {
    paymentStatus(`Your bank refused the authorization: ${answer.reason}`);
    $('retry').hidden = false;
    return;
  }
  paymentStatus('Authorized. Waiting for the bank to settle the Pix…');
  showReceipt(await api('GET', path));
}

function showReceipt(result) {
  widget?.remove();
  widget = null;
  $('payment').hidden = true;
  $('receipt').hidden = false;
  $('receipt-outcome').textContent = result.status;
  $('receipt-amount').textContent = money(payment.amountCents);
  $('receipt-e2e').textContent = result.endToEndId ?? '—';
  $('receipt-date').textContent = result.transactionDate ?? '—';
  $('receipt-reference').textContent = payment.externalId;
  if (result.outcome !== 'settled') say(`The payment was not completed: ${result.reason}`);
  return showParticipants();
}

window.addEventListener('message', (event) => {
  // Only the widget this page embedded, from the bank's origin, is listened to.
  if (!widget || event.source !== widget.contentWindow || event.origin !== widgetOrigin) return;
  const message = event.data;
  if (message?.source !== widgetSource) return;
  if (message.type === 'loaded') return askWidget();
  if (message.requestId !== payment?.requestId) return;
  if (message.type === 'ready') {
    $('pay').disabled = false;
    widget.classList.add('ready');
    paymentStatus('Press Pay and confirm it is you with your fingerprint or face.');
  } else if (message.type === 'success') {
    run(() => authorize(message.credential))();
  } else if (message.type === 'error') {
    lockPay();
    paymentStatus(`Payment not authorized: ${message.message} (${message.error})`);
    $('retry').hidden = false;
  }
});

$('retry').addEventListener(
  'click',
  run(async () => {
    $('retry').hidden = true;
    const path = `/api/payments/${encodeURIComponent(payment.externalId)}/options`;
    payment.options = (await api('POST', path)).publicKeyEncoded;
    askWidget();
  }),
);

async function start() {
  config = await api('GET', '/api/config');
  widgetOrigin = new URL(config.widgetUrl).origin;
  $('description').textContent = config.order.description;
  $('amount').textContent = money(config.order.amountCents);
  $('customer').textContent = config.customer.name;
  // The device's characteristics only: who the customer is, the backend knows from the session.
  ({ deviceId } = await api('POST', '/api/device', {
    fingerprint: fingerprint(),
    os: navigator.platform || 'unknown',
    language: navigator.language,
    screen_width: screen.width,
    screen_height: screen.height,
    timezone_offset: timezoneOffset(),
  }));
  $('device').textContent = deviceId;
  await showParticipants();
  const returnedFrom = new URLSearchParams(location.search).get('enrolled');
  if (!returnedFrom) return;
  const state = await finishEnrollment(returnedFrom);
  const enrolled = (await showParticipants()).find((participant) => participant.id === returnedFrom);
  if (state.phase === 'authorized' && enrolled?.enrolled) await preparePayment(enrolled);
}

run(start)();
