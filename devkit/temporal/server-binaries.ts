import path from 'node:path';
import { bankflowCacheDir, isExecutable } from '../../src/temporal/cli-binary.js';
import { goInstall } from '../../src/temporal/go-install.js';

/** The Temporal server inside the Temporal CLI bankflow builds; its module has no `replace` directive. */
export const temporalServerVersion = 'v1.32.0';
/** The Web UI server the same CLI embeds in `temporal server start-dev`, with its assets compiled in. */
export const temporalUiServerVersion = 'v2.54.1';

export interface ServerBinaries {
  server: string;
  sqlTool: string;
  uiServer: string;
}

export class ServerBinariesError extends Error {
  constructor(reason: string) {
    super(
      `Cannot provide the Temporal server: ${reason}. Install Go (https://go.dev/dl, or apt-get install golang) ` +
        'and run again, or use `npm start` (the embedded dev server needs no build).',
    );
    this.name = 'ServerBinariesError';
  }
}

export function serverCacheDirs(env: { XDG_CACHE_HOME?: string | undefined } = {}) {
  const root = bankflowCacheDir(env);
  return {
    server: path.join(root, `temporal-server-${temporalServerVersion}`),
    ui: path.join(root, `temporal-ui-server-${temporalUiServerVersion}`),
  };
}

function binariesIn(dirs: ReturnType<typeof serverCacheDirs>): ServerBinaries {
  return {
    server: path.join(dirs.server, 'server'),
    sqlTool: path.join(dirs.server, 'sql'),
    uiServer: path.join(dirs.ui, 'server'),
  };
}

function complete(binaries: ServerBinaries): boolean {
  return isExecutable(binaries.server) && isExecutable(binaries.sqlTool) && isExecutable(binaries.uiServer);
}

/**
 * The Temporal server, its SQL schema tool and the Web UI server, built with `go install` into the cache on
 * first use (both modules build as released). The schema tool carries the server's SQL schemas inside it.
 */
export async function provideServerBinaries(
  options: {
    pathEnv?: string | undefined;
    /** Where the cache is (XDG_CACHE_HOME); the home directory's `.cache` by default. */
    cacheEnv?: { XDG_CACHE_HOME?: string };
  } = {},
): Promise<ServerBinaries> {
  const dirs = serverCacheDirs(options.cacheEnv);
  const binaries = binariesIn(dirs);
  if (complete(binaries)) return binaries;
  const progress = process.stderr;
  const builds = [
    {
      cacheDir: dirs.server,
      label: `the Temporal server ${temporalServerVersion}`,
      modules: [
        `go.temporal.io/server/cmd/server@${temporalServerVersion}`,
        `go.temporal.io/server/cmd/tools/sql@${temporalServerVersion}`,
      ],
    },
    {
      cacheDir: dirs.ui,
      label: `the Temporal UI server ${temporalUiServerVersion}`,
      modules: [`github.com/temporalio/ui-server/v2/cmd/server@${temporalUiServerVersion}`],
    },
  ];
  for (const build of builds) {
    const result = await goInstall({ ...build, progress, pathEnv: options.pathEnv });
    if (!result.ok) throw new ServerBinariesError(result.reason);
  }
  if (!complete(binaries))
    throw new ServerBinariesError(`the build did not leave every binary in ${dirs.server}`);
  return binaries;
}
