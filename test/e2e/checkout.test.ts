import type { FastifyInstance } from 'fastify';
import { createCheckout } from '../../devkit/checkout/app.js';
import { hostedPageUrl, widgetPath } from '../../devkit/sandbox/page-urls.js';
import { getEnrollment } from '../../src/starter/index.js';
import { workflowIds } from '../../src/contract/ids.js';
import {
  addVirtualAuthenticator,
  launchBrowser,
  missingBrowser,
  openWorkflowList,
  screenshot,
  type TestBrowser,
  type VirtualAuthenticator,
} from '../helpers/browser.js';
import { bankFor, control, eventually, world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

const noBrowser = missingBrowser();
if (noBrowser) {
  process.stderr.write(`\n!!!!! BROWSER TESTS SKIPPED: ${noBrowser} !!!!!\n\n`);
}
const describeInBrowser = noBrowser ? describe.skip : describe;

const endToEndId = /^E\d{8}\d{12}\w{11}$/;
const participantName = 'Banco do Brasil';

describeInBrowser('checkout page, bank pages and widget in a real browser', () => {
  let stack: TestStack;
  let checkout: FastifyInstance;
  let checkoutUrl: string;
  let browser: TestBrowser;
  let authenticator: VirtualAuthenticator;
  /** The settled payment's reference, for the Temporal UI check. */
  let settledReference = '';
  let settledEndToEndId = '';

  const participantRow = () => browser.page.locator(`li[data-participant="${participantName}"]`);

  const authorizeCalls = async (externalId: string) => {
    const payments = (await control(stack, 'GET', '/sandbox/biometrics/payments')) as unknown as {
      id: string;
      external_id: string;
      status: string;
    }[];
    const payment = payments.find((candidate) => candidate.external_id === externalId);
    if (!payment) throw new Error(`no payment ${externalId} at the bank`);
    const calls = await control(stack, 'GET', `/sandbox/biometrics/payments/${payment.id}/authorize-calls`);
    return { status: payment.status, successful: calls.successful, refused: calls.refused };
  };

  /** The customer's click on the Pay button lands in the bank's widget laid over it. */
  const pressPay = async () => {
    const { page } = browser;
    await page.locator('#pay:not([disabled])').waitFor();
    await page.frameLocator('#widget').locator('#authorize').click();
  };

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    checkout = createCheckout({
      starter: stack,
      bank: { bank: bankFor(stack) },
      merchant: world(stack),
      widgetUrl: hostedPageUrl(stack.sandbox.url, stack.sandbox.webauthn.rpId, widgetPath),
      logger: stack.logger,
    });
    await checkout.listen({ host: 'localhost', port: 0 });
    const address = checkout.server.address();
    checkoutUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchBrowser();
    authenticator = await addVirtualAuthenticator(browser.context, browser.page);
  });

  afterAll(async () => {
    await browser?.close();
    await checkout?.close();
    await stack?.stop();
  });

  it('enrolls through the bank pages, then pays with the widget until the payment settles', async () => {
    const { page } = browser;
    await page.goto(checkoutUrl);
    await participantRow().getByRole('button', { name: 'Enable biometrics' }).click();

    await page.waitForURL(/\/sandbox\/bank-authorization\//);
    await page.getByRole('button', { name: 'Authorize' }).click();

    await page.waitForURL(/^http:\/\/localhost:\d+\/sandbox\/registration\//);
    await page.getByText('awaiting_enrollment').waitFor();
    await page.getByRole('button', { name: 'Register biometrics' }).click();

    await page.waitForURL((url) => url.origin === checkoutUrl);
    await participantRow().getByText('biometrics ready').waitFor();
    const deviceId = (await page.locator('#device').textContent()) ?? '';
    await page.getByText('Press Pay and confirm').waitFor();
    await screenshot(page, 'checkout-ready-to-pay');
    // The widget lies exactly over the Pay button, so the customer's click on Pay reaches it.
    expect(await page.locator('#widget').boundingBox()).toEqual(await page.locator('#pay').boundingBox());
    await pressPay();

    await page.locator('#receipt:not([hidden])').waitFor({ timeout: 30_000 });
    expect(await page.locator('#receipt-outcome').textContent()).toBe('settled');
    expect(await page.locator('#receipt-amount').textContent()).toMatch(/R\$\s*123,45/);
    expect(await page.locator('#receipt-e2e').textContent()).toMatch(endToEndId);
    expect(await page.locator('#message').textContent()).toBe('');
    await screenshot(page, 'checkout-settled');
    settledReference = (await page.locator('#receipt-reference').textContent()) ?? '';
    settledEndToEndId = (await page.locator('#receipt-e2e').textContent()) ?? '';

    const participant = stack.sandbox.state.biometrics.participants.find((p) => p.name === participantName);
    const enrollment = await getEnrollment(stack, { deviceId, participantId: participant?.id ?? '' });
    expect(enrollment.phase).toBe('authorized');
    const registered = stack.sandbox.state.biometrics.enrollments.get(enrollment.enrollmentId ?? '');
    const held = await authenticator.credentials();
    expect(held).toHaveLength(1);
    expect(held[0]?.rpId).toBe('localhost');
    expect(registered?.credentials).toHaveLength(1);
    // The bank holds the credential the device made, and has seen its latest signature counter.
    expect(registered?.credentials[0]).toMatchObject({ id: held[0]?.id, counter: held[0]?.signCount });
    expect(await authorizeCalls(settledReference)).toEqual({ status: 'settled', successful: 1, refused: 0 });
  });

  it('shows the widget error when the customer does not confirm, and pays on the retry', async () => {
    const { page } = browser;
    await page.goto(checkoutUrl);
    await participantRow().getByRole('button', { name: 'Pay with biometrics' }).click();
    await page.getByText('Press Pay and confirm').waitFor();

    await authenticator.setUserVerified(false);
    await pressPay();
    const status = page.locator('#payment-status');
    await status.getByText(/^Payment not authorized/).waitFor();
    expect(await status.textContent()).toMatch(/not allowed.*\(NotAllowedError\)$/);
    await screenshot(page, 'checkout-not-authorized');
    const externalId = (await page.locator('#payment-reference').textContent()) ?? '';
    expect(await authorizeCalls(externalId)).toEqual({
      status: 'awaiting_consent',
      successful: 0,
      refused: 0,
    });

    await authenticator.setUserVerified(true);
    await page.getByRole('button', { name: 'Try again' }).click();
    await pressPay();
    await page.locator('#receipt:not([hidden])').waitFor({ timeout: 30_000 });
    expect(await page.locator('#receipt-outcome').textContent()).toBe('settled');
    expect(await page.locator('#receipt-reference').textContent()).toBe(externalId);
    expect(await authorizeCalls(externalId)).toEqual({ status: 'settled', successful: 1, refused: 0 });
  });

  it('finds the payment workflow in the Temporal UI by its external id, with its summary and status', async () => {
    const uiUrl = process.env[testEnvKeys.uiUrl];
    if (!uiUrl) throw new Error('the Temporal UI URL is not set: run through jest global setup');
    if (!settledReference) throw new Error('the first test did not settle a payment');
    const { page } = browser;
    const workflowId = workflowIds.payment(settledReference);
    const query = `BankflowExternalId="${settledReference}"`;
    const link = await openWorkflowList(page, uiUrl, query, workflowId);
    expect(await page.getByRole('link', { name: /^payment:/ }).count()).toBe(1);
    await screenshot(page, 'temporal-ui-search');

    await link.click();
    await page.getByRole('heading', { name: workflowId }).waitFor({ timeout: 30_000 });
    await page.getByText('Completed', { exact: true }).first().waitFor();
    await page.getByRole('tab', { name: 'User Metadata' }).click();
    // The UI renders summary and details as markdown, each in a frame of its own.
    const metadata = await eventually(
      async () =>
        (await Promise.all(page.frames().map((frame) => frame.textContent('body').catch(() => '')))).join(
          '\n',
        ),
      (text) =>
        text.includes('Pix of R$ 123,45: Pedido 1234: café especial 250 g') && text.includes('— settled'),
    );
    expect(metadata).toContain(`End-to-end id ${settledEndToEndId}`);
    await screenshot(page, 'temporal-ui-workflow');
  });

  it('answers only the page that embeds it, echoing request ids, and refuses options it cannot use', async () => {
    const { page } = browser;
    const widgetUrl = hostedPageUrl(stack.sandbox.url, stack.sandbox.webauthn.rpId, widgetPath);
    await page.goto(`${checkoutUrl}/api/config`);
    // The page embeds the widget and a frame of its own origin that does not; both can post to the widget.
    await page.evaluate(`new Promise((resolve) => {
      window.answers = [];
      window.addEventListener('message', (event) => {
        if (event.source === document.getElementById('widget').contentWindow) window.answers.push(event.data);
      });
      const other = document.createElement('iframe');
      other.src = '/api/config';
      const widget = document.createElement('iframe');
      widget.id = 'widget';
      widget.src = ${JSON.stringify(widgetUrl)};
      widget.onload = resolve;
      document.body.append(other, widget);
    })`);
    const answers = async (count: number) =>
      eventually(
        () => page.evaluate('window.answers') as Promise<Record<string, unknown>[]>,
        (list) => list.length >= count,
        5_000,
      );
    expect(await answers(1)).toEqual([{ source: 'service-biometrics-sdk', type: 'loaded' }]);

    const options = JSON.stringify({ challenge: 'AAAA', rpId: 'localhost', allowCredentials: [] });
    const fromOther = page
      .frames()
      .find((frame) => frame.url().endsWith('/api/config') && frame !== page.mainFrame());
    await fromOther?.evaluate(
      `parent.document.getElementById('widget').contentWindow.postMessage(${JSON.stringify({ action: 'get', options, requestId: 'stranger' })}, '*')`,
    );
    const post = (message: unknown) =>
      page.evaluate(
        `document.getElementById('widget').contentWindow.postMessage(${JSON.stringify(message)}, ${JSON.stringify(new URL(widgetUrl).origin)})`,
      );
    await post({ action: 'get', options: 'not json', requestId: 'bad-options' });
    await post({ action: 'get', requestId: 'no-options' });
    await post({ action: 'get', options, requestId: 'good' });

    const [, ...replies] = await answers(4);
    expect(replies).toEqual([
      {
        source: 'service-biometrics-sdk',
        type: 'error',
        requestId: 'bad-options',
        error: 'DataError',
        message: expect.stringMatching(/^the options are not WebAuthn request options/),
      },
      {
        source: 'service-biometrics-sdk',
        type: 'error',
        requestId: 'no-options',
        error: 'TypeError',
        message: 'get needs a requestId and the options string',
      },
      { source: 'service-biometrics-sdk', type: 'ready', requestId: 'good' },
    ]);
  });
});
