import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createCodecServer } from '../../src/codec-server/app.js';
import { developmentEncryptionKeys } from '../../src/config.js';
import { EncryptionCodec, parseEncryptionKeys } from '../../src/temporal/encryption.js';

/**
 * The codec server the test run's Temporal UI decrypts payloads with (static summaries included), holding the
 * development keys every test stack encrypts with; the UI reaches it with a token in its endpoint's path, as
 * the development stack's does.
 */
export async function startUiCodec(
  uiOrigin: string,
  logger: Logger,
): Promise<{ url: string; uiEndpoint: string; stop(): Promise<void> }> {
  const token = randomBytes(24).toString('hex');
  const app = createCodecServer({
    codec: new EncryptionCodec(parseEncryptionKeys(developmentEncryptionKeys), 'pass'),
    auth: { users: [], tokens: [token] },
    corsOrigins: [uiOrigin],
    logger,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, uiEndpoint: `${url}/${token}`, stop: () => app.close() };
}
