import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createCodecServer } from '../codec-server/app.js';
import type { Config } from '../config.js';
import { EncryptionCodec } from '../temporal/encryption.js';

export interface RunningCodecServer {
  url: string;
  /** The token this run generated for the embedded UI and the banner (development and test only). */
  generatedToken: string | undefined;
  /** What a Temporal UI's codec endpoint setting holds: the url, with the generated token as its path. */
  uiEndpoint: string;
  stop(): Promise<void>;
}

/**
 * The codec server on CODEC_HOST:CODEC_PORT, decrypting payloads for the Temporal UI and CLI for the
 * credentials of CODEC_AUTH_USERS and CODEC_AUTH_TOKENS (production requires one), and encoding too for those
 * of CODEC_ENCODE_USERS and CODEC_ENCODE_TOKENS. Outside production each start also generates a token of its
 * own, so the local Temporal UI decodes, and sends signals from its dialog (which encodes), without anyone
 * configuring credentials.
 */
export async function startCodecServer(config: Config, logger: Logger): Promise<RunningCodecServer> {
  const { codec } = config;
  const generatedToken = config.env === 'production' ? undefined : randomBytes(24).toString('hex');
  const app = createCodecServer({
    codec: new EncryptionCodec(config.temporal.encryptionKeys, 'pass'),
    auth: {
      users: codec.users,
      tokens: codec.tokens,
      encodeUsers: codec.encodeUsers,
      encodeTokens: generatedToken ? [...codec.encodeTokens, generatedToken] : codec.encodeTokens,
    },
    corsOrigins: codec.corsOrigins,
    logger,
  });
  const url = await app.listen({ host: codec.host, port: codec.port });
  return {
    url,
    generatedToken,
    uiEndpoint: generatedToken ? `${url}/${generatedToken}` : url,
    stop: () => app.close(),
  };
}
