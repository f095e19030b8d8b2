import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importsOf } from '../helpers/module-imports.js';

/**
 * What asks Temporal's visibility store: the client's list and count, the service's list, scan and count
 * calls.
 */
const visibilityCall =
  /workflow\.list\b|workflow\.count\b|listWorkflow|countWorkflow|scanWorkflow|listArchivedWorkflow/;

/**
 * The receiver names every event's workflow from the event alone. Visibility is eventually consistent and
 * rate-limited per namespace, so no module the webhook path runs may ask it anything.
 */
describe('the webhook path makes no visibility call', () => {
  const receiverModules = readdirSync('src/webhooks').map((name) => path.resolve('src/webhooks', name));
  const reached = [...new Set(receiverModules.flatMap((file) => [file, ...importsOf(file)]))].filter(
    (module) => module.startsWith(path.resolve('src')),
  );

  it('reaches the receiver, the routes and the delivery', () => {
    const names = reached.map((module) => path.relative('src', module));
    expect(names).toEqual(
      expect.arrayContaining([
        'webhooks/app.ts',
        'webhooks/routes.ts',
        'webhooks/deliver.ts',
        'webhooks/signal-once.ts',
        'webhooks/cash-in-holders.ts',
      ]),
    );
  });

  it('lists, counts and scans no workflows in any module the receiver runs', () => {
    const calling = reached.filter((module) => visibilityCall.test(readFileSync(module, 'utf8')));
    expect(calling.map((module) => path.relative('src', module))).toEqual([]);
  });
});
