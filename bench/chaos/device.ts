import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import type { AuthorizeFidoAssertion, RegisterFidoAssertion } from '../../src/bank/schemas/fido.js';

/**
 * The customer's phone. A registration that timed out may still have reached the bank, so each new credential
 * lives in an authenticator of its own and none is ever replaced: whichever one the bank kept can sign later.
 */
export class CustomerDevice {
  private readonly authenticators: SoftwareAuthenticator[] = [];

  constructor(private readonly origin: string) {}

  createCredential(publicKeyEncoded: string): RegisterFidoAssertion {
    const authenticator = SoftwareAuthenticator.create();
    this.authenticators.unshift(authenticator);
    return authenticator.createCredential(publicKeyEncoded, this.origin);
  }

  /** Signs with the credential the bank allows; the last error when none of them holds it. */
  getAssertion(publicKeyEncoded: string): AuthorizeFidoAssertion {
    let lastError: unknown = new Error('the device holds no credential');
    for (const authenticator of this.authenticators) {
      try {
        return authenticator.getAssertion(publicKeyEncoded, this.origin);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }
}
