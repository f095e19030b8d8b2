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

export interface SlowClientOutcome {
  /** What the server wrote before it closed the connection (an answer, a 408, or nothing). */
  answer: string;
  /** Milliseconds from the connection to its close; Infinity when the client gave up first. */
  closedAfterMs: number;
}

/**
 * The start of a request with these headers, ended by the blank line unless `open` leaves the last header
 * open.
 */
export function requestHead(
  url: string,
  init: { method?: string; path: string; headers?: [string, string][]; open?: boolean },
): string {
  const target = new URL(url);
  const lines = [
    `${init.method ?? 'POST'} ${init.path} HTTP/1.1`,
    `host: ${target.host}`,
    ...(init.headers ?? []).map(([name, value]) => `${name}: ${value}`),
  ];
  return init.open ? `${lines.join('\r\n')}\r\nx-slow: ` : `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * A slow client: sends `head`, then one byte every `dripMs` (of an open header or of a body) when given, and
 * waits until the server closes the connection or `giveUpMs` passes.
 */
export function slowClient(
  url: string,
  init: { head: string; dripMs?: number; giveUpMs: number },
): Promise<SlowClientOutcome> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const received: Buffer[] = [];
    const socket = connect(Number(target.port), target.hostname, () => socket.write(init.head));
    const drip = init.dripMs === undefined ? undefined : setInterval(() => socket.write('a'), init.dripMs);
    let gaveUp = false;
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, init.giveUpMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      resolve({
        answer: Buffer.concat(received).toString('utf8'),
        closedAfterMs: gaveUp ? Infinity : performance.now() - started,
      });
    });
  });
}
