import type { Logger } from 'pino';
import { createCodecServer } from '../../src/codec-server/app.js';
import { developmentEncryptionKeys } from '../../src/config.js';
import { EncryptionCodec, parseEncryptionKeys } from '../../src/temporal/encryption.js';

/**
 * The codec server the test run's Temporal UI decrypts payloads with (static summaries included), holding the
 * development keys every test stack encrypts with; it trusts the UI's origin, as the development stack does.
 */
export async function startUiCodec(
  uiOrigin: string,
  logger: Logger,
): Promise<{ url: string; stop(): Promise<void> }> {
  const app = createCodecServer({
    codec: new EncryptionCodec(parseEncryptionKeys(developmentEncryptionKeys), 'pass'),
    auth: { users: [], tokens: [], trustedOrigins: [uiOrigin] },
    corsOrigins: [uiOrigin],
    logger,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, stop: () => app.close() };
}
