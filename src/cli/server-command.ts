import type { Command } from 'commander';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { stopOnSignals } from '../stack/shutdown.js';
import type { Tracing } from '../tracing/setup.js';
import { cliContext } from './context.js';
import { action } from './errors.js';
import { printLines } from './terminal-text.js';

function printUrls(title: string, urls: Record<string, string>): void {
  const width = Math.max(...Object.keys(urls).map((name) => name.length));
  printLines(`\n${title}`);
  for (const [name, url] of Object.entries(urls)) printLines(`  ${name.padEnd(width)}  ${url}`);
  printLines('\nPress Ctrl-C to stop.\n');
}

/** A long-running part of the stack as a command: how it starts, and what it prints once it is up. */
export interface ServerCommand<Running extends { stop(): Promise<void> }, Loaded extends Config = Config> {
  name: string;
  description: string;
  start(config: Loaded, logger: Logger, tracing: Tracing | undefined): Promise<Running>;
  /** How the command reads its configuration, when not as any production process does. */
  load?: () => Loaded | Promise<Loaded>;
  title: string;
  urls(running: Running): Record<string, string>;
}

/** The OpenTelemetry SDK loads only when tracing is on: a process that does not trace never holds it. */
export async function configuredTracing(config: Config, logger: Logger): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  return (await import('../tracing/setup.js')).startConfiguredTracing(config.tracing, logger);
}

export function addServerCommand<Running extends { stop(): Promise<void> }, Loaded extends Config = Config>(
  program: Command,
  server: ServerCommand<Running, Loaded>,
): Command {
  return program
    .command(server.name)
    .description(server.description)
    .action(
      action(async () => {
        const { config, logger } = await cliContext(server.load);
        const tracing = await configuredTracing(config, logger);
        const running = await server.start(config, logger, tracing);
        // Ctrl-C stops it cleanly from the moment the banner says so; the last spans are sent after.
        stopOnSignals(logger, async () => {
          await running.stop();
          await tracing?.shutdown();
        });
        printUrls(server.title, server.urls(running));
      }),
    );
}
