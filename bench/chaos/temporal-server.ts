import type { Logger } from 'pino';
import { startDevServer, type DevServer, type DevServerOptions } from '../../devkit/temporal/dev-server.js';
import { freePort } from './ports.js';

/** The run's own Temporal dev server on a SQLite file, restartable on the same file and ports. */
export class ChaosTemporalServer {
  restarts = 0;
  /** How long Temporal was unreachable during each restart, in ms. */
  readonly downtimesMs: number[] = [];

  private constructor(
    private server: DevServer,
    private readonly options: DevServerOptions,
  ) {}

  static async start(cliPath: string, dataDir: string, logger: Logger): Promise<ChaosTemporalServer> {
    const options: DevServerOptions = {
      cliPath,
      port: await freePort(),
      uiPort: await freePort(),
      dataDir,
      namespace: 'default',
      logger,
    };
    return new ChaosTemporalServer(await startDevServer(options), options);
  }

  get address(): string {
    return this.server.address;
  }

  /** Stops the server (SIGTERM), stays down for `pauseMs`, then starts it again on the same database. */
  async restart(pauseMs: number): Promise<void> {
    const stopped = Date.now();
    await this.server.stop();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    this.server = await startDevServer(this.options);
    this.restarts++;
    this.downtimesMs.push(Date.now() - stopped);
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
