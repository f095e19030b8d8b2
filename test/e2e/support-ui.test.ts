import { copyFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { developmentSupportLookupSecret } from '../../src/config.js';
import { customerKey, startEnrollment, supportQueries } from '../../src/starter/index.js';
import {
  launchBrowser,
  missingBrowser,
  openWorkflowList,
  screenshot,
  type TestBrowser,
} from '../helpers/browser.js';
import { postSignedWebhook } from '../helpers/http.js';
import { keyOf, newCustomer } from '../helpers/journey.js';
import { receiverSecret, startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

const noBrowser = missingBrowser();
if (noBrowser) process.stderr.write(`\n!!!!! BROWSER TESTS SKIPPED: ${noBrowser} !!!!!\n\n`);
const describeInBrowser = noBrowser ? describe.skip : describe;

/** The views docs/support.md points support staff to, as they see them; the screenshots illustrate it. */
describeInBrowser('the support views in the Temporal UI', () => {
  let stack: TestStack;
  let browser: TestBrowser;
  const uiUrl = process.env[testEnvKeys.uiUrl] ?? '';

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /**
   * Opens the workflow list for `query` until visibility shows `workflowId` in it, then keeps a screenshot.
   */
  async function showList(query: string, workflowId: string, image: string) {
    const { page } = browser;
    await openWorkflowList(page, uiUrl, query, workflowId);
    copyFileSync(await screenshot(page, image), `docs/images/${image}.png`);
  }

  it("finds a customer's enrollment by the key of their CPF, the number nowhere on the page", async () => {
    const customer = await newCustomer(stack);
    const starter = { ...stack, customerKeySecret: developmentSupportLookupSecret };
    const started = await startEnrollment(starter, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/enrolled',
      customerTaxNumber: '123.456.789-09',
    });
    const query = supportQueries.customer(customerKey(developmentSupportLookupSecret, '12345678909'));
    await showList(query, started.workflowId, 'support-customer');
    const text = (await browser.page.textContent('body')) ?? '';
    expect(text).not.toContain('12345678909');
    expect(text).not.toContain('123.456.789-09');
  });

  it('lists the open unmatched bank events of the task queue', async () => {
    const refId = randomUUID();
    const answer = await postSignedWebhook(
      stack.receiverUrl ?? '',
      JSON.stringify({
        category: 'some_future_category',
        type: 'created',
        ref_id: refId,
        timestamp: new Date().toISOString(),
        data: { id: refId, status: 'created' },
      }),
      receiverSecret,
    );
    const workflowId: string = answer.json().workflowId;
    await showList(supportQueries.unmatched(stack.taskQueue), workflowId, 'support-unmatched');
  });
});
