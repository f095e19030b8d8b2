import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookHeaders } from '../../src/bank/schemas/webhook.js';

export interface ReceivedWebhook {
  method: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes on the wire. */
  raw: Buffer;
  /** performance.now() when the body had fully arrived. */
  at: number;
}

/** How the receiver answers its n-th request (1-based): a status code, never (stall), or a cut-off body. */
export type ReceiverAnswer = number | 'stall' | 'interrupt';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  answer: (request: number, webhook: ReceivedWebhook) => ReceiverAnswer;
  close(): Promise<void>;
}

function reply(response: ServerResponse, answer: ReceiverAnswer): void {
  if (answer === 'stall') return;
  if (answer === 'interrupt') {
    response.writeHead(200, { 'content-length': '100' });
    response.write('{"partial":', () => response.socket?.destroy());
    return;
  }
  response.writeHead(answer, { 'content-type': 'application/json' }).end('{"ok":true}');
}

/** A tiny bank-webhook receiver on 127.0.0.1 that records everything that arrives. */
export async function startWebhookReceiver(
  answer: WebhookReceiver['answer'] = () => 200,
): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = { received: [], answer };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhook = {
        method: request.method ?? '',
        headers: request.headers,
        raw: Buffer.concat(chunks),
        at: performance.now(),
      };
      receiver.received.push(webhook);
      reply(response, receiver.answer(receiver.received.length, webhook));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}

/** The id the sandbox put on a delivery (the same on every attempt and copy). */
export function webhookId(webhook: ReceivedWebhook): string {
  return String(webhook.headers[webhookHeaders.id]);
}
