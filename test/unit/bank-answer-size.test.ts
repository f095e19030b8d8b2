import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { BankInvalidResponseError } from '../../src/bank/errors.js';
import { bankAnswerMaxBytes, BankHttp } from '../../src/bank/http.js';
import { createLogger } from '../../src/logger.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';

/** What the hostile bank answers: 50 MB, streamed as fast as bankflow reads it. */
const bodyBytes = 50 * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, ' ');

interface Answered {
  /** The bytes the bank wrote before bankflow closed the connection (the kernel's buffers included). */
  written: number;
  /** Whether the bank wrote the whole body: false when bankflow closed the connection before. */
  finished: boolean;
}

/** Streams a JSON page of `bytes` (blanks, then `{}`); `answered` says how far it got. */
function stream(response: ServerResponse, status: number, headers: Record<string, string | number>) {
  let written = 0;
  const answered = new Promise<Answered>((resolve) =>
    response.once('close', () => resolve({ written, finished: response.writableFinished })),
  );
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  const pump = () => {
    while (written < bodyBytes && !response.destroyed) {
      written += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    response.end('{}');
  };
  pump();
  return answered;
}

const page = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

describe('a bank answering a huge body', () => {
  let stub: StubBank;
  let http: BankHttp;
  const answers: Promise<Answered>[] = [];

  beforeAll(async () => {
    stub = await startStubBank((request, response) => {
      request.resume();
      const scenario = (request.url ?? '').split('?')[0];
      if (scenario === '/streamed') answers.push(stream(response, 200, {}));
      else if (scenario === '/declared')
        answers.push(stream(response, 200, { 'content-length': bodyBytes + 2 }));
      else if (scenario === '/error-page') answers.push(stream(response, 502, {}));
      else if (scenario === '/bomb')
        response
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.concat([Buffer.alloc(bodyBytes, ' '), Buffer.from('{}')])));
      else {
        // A legitimate page close to the limit: 3 MiB of records.
        const data = Array.from({ length: 3 * 1024 }, (_, index) => ({
          id: String(index),
          note: 'x'.repeat(990),
        }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
      }
    });
    http = new BankHttp(
      {
        clientId: 'client-7f3a',
        clientSecret: 'secret-of-the-stub',
        baseUrl: stub.baseUrl,
        timeoutMs: 10_000,
      },
      createLogger('silent'),
    );
  });
  afterAll(() => stub.stop());

  const call = (path: string) =>
    http.request({ operation: 'listRecords', method: 'GET', path, schema: page }).then(
      () => undefined,
      (error: unknown) => error,
    );

  it.each([
    ['streamed without a length', '/streamed', 200],
    ['declared by its Content-Length', '/declared', 200],
    ['on an error status', '/error-page', 502],
  ])(
    'refuses an answer of 50 MB %s, naming the limit, and closes it after at most 4 MiB',
    async (_name, path, status) => {
      const error = await call(path);
      expect(error).toBeInstanceOf(BankInvalidResponseError);
      expect(error).toMatchObject({
        type: 'BankInvalidResponse',
        retryable: false,
        message: `listRecords: the bank answered HTTP ${status} with a body over ${bankAnswerMaxBytes} bytes (4 MiB), the most bankflow reads of an answer; it was not read further`,
        context: { status, path },
      });
      const answered = await answers.at(-1);
      expect(answered?.finished).toBe(false);
      // What the bank wrote is what bankflow read (the limit at most) and what the sockets of both ends
      // buffered: a few MB on the loopback, not the body.
      expect(answered?.written).toBeLessThan(bodyBytes / 4);
    },
  );

  it('counts the bytes it decompressed, not those on the wire: a 50 KB gzip of 50 MB is refused', async () => {
    expect(await call('/bomb')).toMatchObject({
      type: 'BankInvalidResponse',
      message: expect.stringContaining(`with a body over ${bankAnswerMaxBytes} bytes`),
    });
  });

  it('reads a legitimate page under the limit whole', async () => {
    const answer = (await http.request({
      operation: 'listRecords',
      method: 'GET',
      path: '/page',
      schema: page,
    })) as {
      data: unknown[];
    };
    expect(answer.data).toHaveLength(3 * 1024);
  });
});
