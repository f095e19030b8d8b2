import type { Logger } from 'pino';
import { createCodecServer } from '../codec-server/app.js';
import type { Config } from '../config.js';
import { EncryptionCodec } from '../temporal/encryption.js';

export interface RunningCodecServer {
  url: string;
  stop(): Promise<void>;
}

/** The codec server on CODEC_HOST:CODEC_PORT, decrypting payloads for the Temporal UI and CLI. */
export async function startCodecServer(config: Config, logger: Logger): Promise<RunningCodecServer> {
  const { codec } = config;
  const app = createCodecServer({
    codec: new EncryptionCodec(config.temporal.encryptionKeys, 'pass'),
    auth: {
      users: codec.users,
      tokens: codec.tokens,
      trustedOrigins: codec.trustUiOrigin ? codec.corsOrigins : [],
    },
    corsOrigins: codec.corsOrigins,
    logger,
  });
  const url = await app.listen({ host: codec.host, port: codec.port });
  return { url, stop: () => app.close() };
}
