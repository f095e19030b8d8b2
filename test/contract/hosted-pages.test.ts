import { randomUUID } from 'node:crypto';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { BankClient } from '../../src/bank/client.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { httpCall } from '../helpers/http.js';
import { authorizeAtSandboxBank, createSandboxEnrollment } from '../helpers/sandbox-enrollments.js';

const credentials = { clientId: 'pages-client', clientSecret: 'pages-secret' };
const logger = createLogger('silent');
const returnToUrl = 'https://merchant.example/checkout?enrolled=1';

let sandbox: RunningSandbox;
let bank: BankClient;
/** The sandbox on the RP id's host, where its WebAuthn pages are served. */
let pagesUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed: 7, credentials, logger });
  bank = new BankClient({ ...credentials, timeoutMs: 5_000, baseUrl: sandbox.url }, logger);
  pagesUrl = `http://localhost:${new URL(sandbox.url).port}`;
});

afterAll(() => sandbox?.stop());

/** An enrollment the customer has just authorized at the bank: the registration page's starting point. */
async function authorizedAtBank() {
  const { participant, enrollment } = await createSandboxEnrollment(bank, sandbox, returnToUrl);
  const page = await httpCall(enrollment.redirect_url);
  expect(await authorizeAtSandboxBank(sandbox, enrollment.id)).toBe('awaiting_enrollment');
  return { enrollment, participantName: participant?.name, bankPage: page.body };
}

describe('hosted pages', () => {
  it('serves the widget on the RP id host and redirects other hosts there', async () => {
    const elsewhere = await fetch(`${sandbox.url}/sandbox/widget`, { redirect: 'manual' });
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get('location')).toBe(`${pagesUrl}/sandbox/widget`);

    const widget = await httpCall(`${pagesUrl}/sandbox/widget`);
    expect(widget.statusCode).toBe(200);
    expect(widget.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(widget.body).toContain('<script type="module" src="/sandbox/pages/widget.js"></script>');
  });

  it('serves the pages scripts, and nothing else from the pages folder', async () => {
    for (const name of ['widget.js', 'registration.js', 'webauthn-json.js']) {
      const script = await httpCall(`${pagesUrl}/sandbox/pages/${name}`);
      expect(script.statusCode).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    }
    expect((await httpCall(`${pagesUrl}/sandbox/pages/widget.html`)).statusCode).toBe(404);
    expect((await httpCall(`${pagesUrl}/sandbox/pages/..%2Fapp.ts`)).statusCode).toBe(404);
  });

  it('leads the customer from the bank authorization to the registration page on the RP id host', async () => {
    const { enrollment, bankPage } = await authorizedAtBank();
    expect(bankPage).toContain(`data-next="${pagesUrl}/sandbox/registration/${enrollment.id}"`);
    const page = await httpCall(`${pagesUrl}/sandbox/registration/${enrollment.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<script type="module" src="/sandbox/pages/registration.js"></script>');
  });

  it('registers the credential from the page, authorizing the enrollment, and tells where to return', async () => {
    const { enrollment, participantName } = await authorizedAtBank();
    const page = `${pagesUrl}/sandbox/registration/${enrollment.id}`;
    const session = await httpCall(`${page}/session`);
    expect(session.json()).toEqual({
      data: {
        enrollment_id: enrollment.id,
        status: 'awaiting_enrollment',
        participant_name: participantName,
        return_to_url: returnToUrl,
      },
    });

    const options = (await httpCall(`${page}/options`)).json().data.public_key_encoded as string;
    const fido = SoftwareAuthenticator.create().createCredential(options, pagesUrl);
    const registered = await httpCall(`${page}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fido_assertion: fido }),
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json().data).toMatchObject({ id: enrollment.id, status: 'authorized' });
    expect((await bank.listEnrollments({ device_id: enrollment.device_id })).data[0]?.status).toBe(
      'authorized',
    );
    expect((await httpCall(`${page}/session`)).json().data.status).toBe('authorized');
  });

  it('refuses a registration the bank would refuse, with the same errors', async () => {
    const { enrollment } = await authorizedAtBank();
    const page = `${pagesUrl}/sandbox/registration/${enrollment.id}`;
    const options = (await bank.getRegistrationOptions(enrollment.id)).public_key_encoded;
    const unverified = SoftwareAuthenticator.create({ userVerified: false }).createCredential(
      options,
      pagesUrl,
    );
    const refused = await httpCall(`${page}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fido_assertion: unverified }),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].detail).toMatch(/user verification flag is not set/);

    const missing = await httpCall(`${pagesUrl}/sandbox/registration/${randomUUID()}/session`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].title).toBe('NOT_FOUND');
  });
});
