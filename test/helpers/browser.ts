import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';

/** Debian's Chromium, which scripts/install-chromium.sh installs before the tests when it can. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const screenshotsDir = path.resolve('.test-results/screenshots');

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile, removed on close. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'bankflow-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1100, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface VirtualAuthenticator {
  /** A customer who does not confirm (no fingerprint, cancelled prompt) when false. */
  setUserVerified(verified: boolean): Promise<void>;
  /** Credential ids (base64url) and sign counts the authenticator holds. */
  credentials(): Promise<{ id: string; signCount: number; rpId: string }[]>;
}

/**
 * A platform authenticator with biometrics, through Chrome DevTools' WebAuthn domain: the device the customer
 * touches. It serves every frame of the page, the bank's widget iframe included.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    setUserVerified: async (isUserVerified) => {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified });
    },
    credentials: async () => {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.map((credential) => ({
        id: Buffer.from(credential.credentialId, 'base64').toString('base64url'),
        signCount: credential.signCount,
        rpId: credential.rpId ?? '',
      }));
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function missingBrowser(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  return `no Chromium at ${chromiumPath}: install Debian's chromium package (scripts/install-chromium.sh does it as root) or set CHROMIUM_PATH`;
}

/**
 * Opens the Temporal UI's workflow list for `query` until it shows `workflowId`: the list does not refresh by
 * itself, and visibility has a new or just closed workflow a moment later. Answers the workflow's link.
 */
export async function openWorkflowList(page: Page, uiUrl: string, query: string, workflowId: string) {
  const link = page.getByRole('link', { name: workflowId });
  const deadline = Date.now() + 30_000;
  for (;;) {
    await page.goto(`${uiUrl}/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
    const shown = await link.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return link;
    if (Date.now() > deadline) throw new Error(`the Temporal UI did not list ${workflowId} for ${query}`);
  }
}
