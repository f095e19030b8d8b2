import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  /** Sent in this order and exactly as given, repeated names included; `host` replaces the URL's. */
  headers: [string, string][];
  body?: Buffer;
  /** Sent with `transfer-encoding: chunked` in two pieces instead of with a content-length. */
  chunked?: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One HTTP/1.1 request whose headers and bytes the caller controls, which fetch does not allow. */
export function rawRequest(url: string, init: RawRequest): Promise<RawAnswer> {
  const target = new URL(url);
  const body = init.body ?? Buffer.alloc(0);
  const namesHost = init.headers.some(([name]) => name.toLowerCase() === 'host');
  const headers = namesHost ? [...init.headers] : [['host', target.host], ...init.headers];
  if (!init.chunked) headers.push(['content-length', String(body.length)]);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: init.method ?? 'POST',
        headers: headers.flat(),
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (init.chunked) {
      const half = Math.floor(body.length / 2);
      outgoing.write(body.subarray(0, half));
      outgoing.end(body.subarray(half));
    } else {
      outgoing.end(body);
    }
  });
}

/**
 * A request that announces `declaredLength` bytes, sends `body` (fewer) and hangs up: what a client that dies
 * mid-upload leaves behind. Resolves once the socket is closed, whatever the server did.
 */
export function abandonedUpload(
  url: string,
  headers: [string, string][],
  body: Buffer,
  declaredLength: number,
) {
  const target = new URL(url);
  return new Promise<void>((resolve) => {
    const socket = connect(Number(target.port), target.hostname, () => {
      const head = [
        `POST ${target.pathname} HTTP/1.1`,
        `host: ${target.host}`,
        ...headers.map(([name, value]) => `${name}: ${value}`),
        `content-length: ${declaredLength}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(body, () => socket.destroy());
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

export function closeRawAgent(): void {
  agent.destroy();
}
