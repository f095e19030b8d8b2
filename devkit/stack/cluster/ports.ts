import net from 'node:net';
import { ConfigError } from '../../../src/config.js';

/** Every port the Temporal server binds, laid out from its frontend port as Temporal's own configs do. */
export interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  history: number;
  matching: number;
  worker: number;
  frontendMembership: number;
  historyMembership: number;
  matchingMembership: number;
  workerMembership: number;
}

/** A port the cluster needs, with the variable that moves it. */
export interface NamedPort {
  port: number;
  what: string;
  variable: string;
}

/**
 * The server's ports laid out from its frontend's gRPC port: 7233 gives Temporal's usual 7234/7235/7239/7243
 * and 6933-6939.
 */
export function serverPorts(frontend: number): ServerPorts {
  // The server records membership ports in a smallint column: one above 32767 fails its start.
  if (frontend - 300 < 1 || frontend - 294 > 32_767) {
    throw new ConfigError([
      {
        variable: 'TEMPORAL_DEV_PORT',
        reason:
          `${frontend} puts the server's membership ports (it minus 300 to minus 294) outside 1-32767, ` +
          'which the server stores them in; use a port from 301 to 33061, e.g. 7233',
      },
    ]);
  }
  return {
    frontend,
    frontendHttp: frontend + 10,
    history: frontend + 1,
    matching: frontend + 2,
    worker: frontend + 6,
    frontendMembership: frontend - 300,
    historyMembership: frontend - 299,
    matchingMembership: frontend - 298,
    workerMembership: frontend - 294,
  };
}

/** The server's ports, named for the error an operator sees when one is taken. */
export function namedServerPorts(ports: ServerPorts): NamedPort[] {
  return Object.entries(ports).map(([what, port]) => {
    const offset = port - ports.frontend;
    const relative = offset === 0 ? '' : ` = TEMPORAL_DEV_PORT${offset > 0 ? '+' : ''}${offset}`;
    return { port, what: `Temporal ${what}${relative}`, variable: 'TEMPORAL_DEV_PORT' };
  });
}

export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Refuses to start half a cluster: every port taken is named, with the variable that moves it. */
export async function assertPortsFree(ports: NamedPort[]): Promise<void> {
  const taken: NamedPort[] = [];
  for (const entry of ports) if (!(await portFree(entry.port))) taken.push(entry);
  if (taken.length === 0) return;
  throw new ConfigError(
    taken.map((entry) => ({
      variable: entry.variable,
      reason:
        `port ${entry.port} (${entry.what}) is in use: stop what listens there ` +
        `(\`ss -ltnp 'sport = :${entry.port}'\` shows it) or set ${entry.variable} to another port`,
    })),
  );
}
