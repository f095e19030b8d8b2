import { readFileSync } from 'node:fs';

const doc = readFileSync('docs/checkout.md', 'utf8');
const browserTest = readFileSync('test/e2e/checkout.test.ts', 'utf8');

/** The pages the customer presses buttons on: the checkout's own, and the sandbox bank's hosted ones. */
const pages = [
  'devkit/checkout/public/index.html',
  'devkit/checkout/public/checkout.js',
  'devkit/sandbox/routes/bank-authorization-page.ts',
  'devkit/sandbox/pages/registration.html',
].map((file) => readFileSync(file, 'utf8'));

/** The **buttons** of the page's numbered steps (the list from "1. " to the next blank line), in order. */
const documentedPresses = () => {
  const start = doc.search(/^1\. /m);
  const steps = doc.slice(start, doc.indexOf('\n\n', start));
  return [...steps.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]);
};

/** The buttons the browser test presses through its first journey, in order (pressPay presses Pay). */
const testedPresses = () => {
  const start = browserTest.indexOf("it('enrolls through the bank pages");
  const journey = browserTest.slice(start, browserTest.indexOf('\n  it(', start + 1));
  return [...journey.matchAll(/getByRole\('button', \{ name: '([^']+)' \}\)\.click\(\)|pressPay\(\)/g)].map(
    (match) => match[1] ?? 'Pay',
  );
};

describe('docs/checkout.md', () => {
  it('has the customer press the buttons the browser test presses, in its order', () => {
    expect(documentedPresses()).toEqual(testedPresses());
    expect(documentedPresses()).toEqual(['Enable biometrics', 'Authorize', 'Register biometrics', 'Pay']);
  });

  it('names only buttons the pages show', () => {
    const buttons = [...doc.matchAll(/\*\*([A-Z][a-z]+(?: [a-z]+)*)\*\*/g)].map((match) => match[1] ?? '');
    const shown = (name: string) =>
      pages.some((page) => page.includes(`>${name}</button>`) || page.includes(`'${name}'`));
    expect(buttons).toContain('Pay with biometrics');
    expect(buttons.filter((name) => !shown(name))).toEqual([]);
  });
});
