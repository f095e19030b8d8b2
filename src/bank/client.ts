import type { Logger } from 'pino';
import type { BankConfig } from '../config.js';
import { BankHttp } from './http.js';
import { defineResourceMethods, type ResourceMethods } from './resource.js';
import { bankEndpoints, type BankEndpoints } from './resources/index.js';

class Client {
  readonly http: BankHttp;

  constructor(config: BankConfig & { baseUrl: string }, logger: Logger) {
    this.http = new BankHttp(config, logger.child({ component: 'bank-client' }));
  }
}
defineResourceMethods(Client.prototype, bankEndpoints);

/**
 * One typed method per Banking API endpoint, declared in its resource (src/bank/resources), and `listAll...`
 * for each list paged by cursors. Every failure is a BankError (see errors.ts).
 */
export type BankClient = ResourceMethods<BankEndpoints>;

export const BankClient = Client as unknown as new (
  config: BankConfig & { baseUrl: string },
  logger: Logger,
) => BankClient;
