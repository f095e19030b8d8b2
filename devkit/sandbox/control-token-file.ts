import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where `bankflow dev` and `bankflow sandbox` leave the control API's token for this run, readable by the
 * user alone, so `bankflow demo` in another terminal of the same user finds it.
 */
export const controlTokenPath = (dataDir: string) => path.join(dataDir, 'sandbox-control-token');

export function writeControlToken(dataDir: string, token: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(controlTokenPath(dataDir), `${token}\n`, { mode: 0o600 });
}

/** SANDBOX_CONTROL_TOKEN when set, else the running stack's token file; undefined when there is neither. */
export function readControlToken(dataDir: string, configured: string | undefined): string | undefined {
  if (configured) return configured;
  try {
    return readFileSync(controlTokenPath(dataDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
