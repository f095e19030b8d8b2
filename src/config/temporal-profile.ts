import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow/index.js';
import {
  loadClientConfig,
  loadClientConfigProfile,
  toClientOptions,
  type ClientConfigProfile,
  type ConfigDataSource,
} from '@temporalio/envconfig';

/**
 * The variables Temporal's CLI and SDKs read for a connection (`@temporalio/envconfig`), which bankflow reads
 * the same way: over the profile TEMPORAL_PROFILE names (`default` unless set) in `temporal.toml`. `secret`
 * marks those whose value no error or report shows.
 */
export const temporalProfileVariables = {
  TEMPORAL_PROFILE: { secret: false },
  TEMPORAL_CONFIG_FILE: { secret: false },
  TEMPORAL_ADDRESS: { secret: false },
  TEMPORAL_NAMESPACE: { secret: false },
  TEMPORAL_API_KEY: { secret: true },
  TEMPORAL_TLS: { secret: false },
  TEMPORAL_TLS_CLIENT_CERT_PATH: { secret: false },
  TEMPORAL_TLS_CLIENT_CERT_DATA: { secret: true },
  TEMPORAL_TLS_CLIENT_KEY_PATH: { secret: false },
  TEMPORAL_TLS_CLIENT_KEY_DATA: { secret: true },
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: { secret: false },
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: { secret: true },
  TEMPORAL_TLS_SERVER_NAME: { secret: false },
  TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: { secret: false },
  /** `TEMPORAL_GRPC_META_<HEADER>`: a gRPC header on every call; its value may be a credential. */
  TEMPORAL_GRPC_META_: { secret: true },
} as const;

const grpcMetaPrefix = 'TEMPORAL_GRPC_META_';

/** The connection to Temporal as the resolved profile describes it, certificate files read. */
export interface TemporalProfile {
  /**
   * Where the profile came from, for messages: `profile "prod" of /etc/bankflow/temporal.toml`, or the
   * environment.
   */
  source: string;
  /** Unset means "start an embedded dev server" for `bankflow dev`, and localhost:7233 elsewhere. */
  address: string | undefined;
  namespace: string;
  apiKey: string | undefined;
  /** False is plaintext; envconfig turns TLS on for a `tls` table, a TLS variable or an API key. */
  tls: TLSConfig | false;
  metadata: Record<string, string> | undefined;
}

export interface ProfileProblem {
  variable: string;
  message: string;
}

export type ProfileReading = { profile: TemporalProfile; problems: [] } | { problems: ProfileProblem[] };

/**
 * The file envconfig reads when TEMPORAL_CONFIG_FILE is unset: `temporalio/temporal.toml` in the user's
 * config directory.
 */
function defaultConfigFile(env: Record<string, string>): string | undefined {
  const platform = os.platform();
  if (platform === 'win32') return env.APPDATA && path.join(env.APPDATA, 'temporalio', 'temporal.toml');
  if (platform === 'darwin')
    return env.HOME && path.join(env.HOME, 'Library', 'Application Support', 'temporalio', 'temporal.toml');
  const configHome = env.XDG_CONFIG_HOME ?? (env.HOME && path.join(env.HOME, '.config'));
  if (!configHome || !path.isAbsolute(configHome)) return undefined;
  return path.join(configHome, 'temporalio', 'temporal.toml');
}

/**
 * The environment as envconfig should see it: an empty variable is unset, as for bankflow's own variables,
 * except an empty TEMPORAL_GRPC_META_*, which envconfig reads as "drop this header of the file's profile".
 */
function definedVariables(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).flatMap(([name, value]) =>
      value === undefined || (value.trim() === '' && !name.startsWith(grpcMetaPrefix)) ? [] : [[name, value]],
    ),
  );
}

interface ConfigFile {
  path: string | undefined;
  text: string;
  /** How a message names the file: the variable that chose it, or its default place. */
  named: string;
}

function readConfigFile(env: Record<string, string>): ConfigFile | ProfileProblem {
  const explicit = env.TEMPORAL_CONFIG_FILE;
  const file = explicit ?? defaultConfigFile(env);
  const named = explicit ? 'TEMPORAL_CONFIG_FILE' : (file ?? 'temporal.toml');
  if (!file) return { path: undefined, text: '', named };
  try {
    return { path: file, text: readFileSync(file, 'utf8'), named };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Temporal's tools run without a file at the default place; a file named on purpose must be there.
    if (code === 'ENOENT' && !explicit) return { path: undefined, text: '', named };
    return { variable: named, message: `cannot read ${file} (${code ?? (error as Error).message})` };
  }
}

/** The TLS entries a file or a variable gives as a path or as data, by what envconfig calls them. */
const tlsEntries = {
  clientCert: { variable: 'TEMPORAL_TLS_CLIENT_CERT', key: 'client_cert' },
  clientKey: { variable: 'TEMPORAL_TLS_CLIENT_KEY', key: 'client_key' },
  serverCACert: { variable: 'TEMPORAL_TLS_SERVER_CA_CERT', key: 'server_ca_cert' },
} as const;

type TlsEntry = keyof typeof tlsEntries;

/** Whether the variable or the profile of the file gave a TLS entry, named as the operator wrote it. */
function origin(
  entry: TlsEntry,
  source: ConfigDataSource,
  env: Record<string, string>,
  profileSource: string,
) {
  const kind = 'path' in source ? 'path' : 'data';
  const variable = `${tlsEntries[entry].variable}_${kind.toUpperCase()}`;
  return env[variable] !== undefined ? variable : `tls.${tlsEntries[entry].key}_${kind} of ${profileSource}`;
}

const flagValues = new Set(['true', 'false', '1', '0']);

/** envconfig reads any other value of its flags as false, so a typo would silently turn TLS off. */
function flagProblems(env: Record<string, string>): ProfileProblem[] {
  return (['TEMPORAL_TLS', 'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION'] as const).flatMap((variable) => {
    const value = env[variable];
    if (value === undefined || flagValues.has(value)) return [];
    return [{ variable, message: "must be true, false, 1 or 0, the values Temporal's tools read" }];
  });
}

/**
 * The Temporal SDK for TypeScript has no way to skip host verification: refused rather than silently ignored.
 */
function hostVerificationProblems(env: Record<string, string>): ProfileProblem[] {
  const value = env.TEMPORAL_TLS_DISABLE_HOST_VERIFICATION;
  if (value !== 'true' && value !== '1') return [];
  return [
    {
      variable: 'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
      message:
        "cannot be honoured by bankflow (Temporal's TypeScript SDK always verifies the server's certificate); " +
        'unset it and set TEMPORAL_TLS_SERVER_NAME to the name the certificate carries',
    },
  ];
}

/**
 * The names of the file's profiles, or why it is no temporal.toml. envconfig fails on a file without a
 * `profile` table (an empty one, or comments only) with a TypeError rather than a TOML error: such a file
 * holds no profile.
 */
function profileNames(file: ConfigFile, env: Record<string, string>): string[] | ProfileProblem {
  if (file.text.trim() === '') return [];
  try {
    return Object.keys(
      loadClientConfig({ configSource: { data: file.text }, overrideEnvVars: env }).profiles,
    );
  } catch (error) {
    // The parser quotes the offending lines, which may hold an API key: only its reason and place are shown.
    const { line, column } = error as { line?: number; column?: number };
    if (line === undefined && error instanceof TypeError) return [];
    const reason = (error as Error).message.split('\n')[0];
    const where = line === undefined ? '' : ` at line ${line}, column ${column ?? 1}`;
    return {
      variable: file.named,
      message: `${file.path ?? 'the file'} is not a valid temporal.toml${where}: ${reason}`,
    };
  }
}

/**
 * Temporal's CLI refuses a profile it cannot find rather than connecting somewhere else; so does bankflow.
 */
function unknownProfile(file: ConfigFile, wanted: string, names: string[]): ProfileProblem {
  const held = names.length > 0 ? names.map((name) => `"${name}"`).join(', ') : 'none';
  return {
    variable: 'TEMPORAL_PROFILE',
    message: file.path
      ? `names profile "${wanted}", which ${file.path} does not hold (it holds ${held})`
      : `names profile "${wanted}", but there is no temporal.toml (set TEMPORAL_CONFIG_FILE to the file that holds it)`,
  };
}

/** Each TLS file of the profile read into data, so a connection never meets an unreadable path. */
function readTlsFiles(
  profile: ClientConfigProfile,
  env: Record<string, string>,
  profileSource: string,
): ProfileProblem[] {
  const tls = profile.tls;
  if (!tls) return [];
  return (Object.keys(tlsEntries) as TlsEntry[]).flatMap((entry) => {
    const source = tls[entry];
    if (!source || !('path' in source)) return [];
    try {
      tls[entry] = { data: readFileSync(source.path) };
      return [];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return [
        {
          variable: origin(entry, source, env, profileSource),
          message: `cannot read ${source.path} (${code})`,
        },
      ];
    }
  });
}

/**
 * A client certificate needs its key and the key its certificate: envconfig would drop either alone silently.
 */
function pairProblems(
  profile: ClientConfigProfile,
  env: Record<string, string>,
  profileSource: string,
): ProfileProblem[] {
  const { clientCert, clientKey } = profile.tls ?? {};
  if (Boolean(clientCert) === Boolean(clientKey)) return [];
  const [given, missing] = clientCert
    ? (['clientCert', 'clientKey'] as const)
    : (['clientKey', 'clientCert'] as const);
  const source = profile.tls?.[given];
  const named = source ? origin(given, source, env, profileSource) : given;
  return [
    {
      variable: named,
      message:
        `is set without the client ${missing === 'clientKey' ? 'key' : 'certificate'} (mTLS needs both): set ` +
        `${tlsEntries[missing].variable}_PATH, or tls.${tlsEntries[missing].key}_path in the profile`,
    },
  ];
}

/**
 * Reads the connection profile as Temporal's CLI does: the file's profile, then the TEMPORAL_* variables over
 * it.
 */
export function readTemporalProfile(rawEnv: Record<string, string | undefined>): ProfileReading {
  const env = definedVariables(rawEnv);
  const flags = [...flagProblems(env), ...hostVerificationProblems(env)];
  const file = readConfigFile(env);
  if ('message' in file) return { problems: [file, ...flags] };
  const names = profileNames(file, env);
  if (!Array.isArray(names)) return { problems: [names, ...flags] };
  const wanted = env.TEMPORAL_PROFILE;
  if (wanted !== undefined && !names.includes(wanted))
    return { problems: [unknownProfile(file, wanted, names), ...flags] };
  const profileName = wanted ?? 'default';
  const fromFile = names.includes(profileName);
  const profileSource = fromFile
    ? `profile "${profileName}" of ${file.path}`
    : 'the TEMPORAL_* variables alone';
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({
      configSource: { data: file.text },
      disableFile: !fromFile,
      overrideEnvVars: env,
    });
  } catch (error) {
    // "Cannot specify both client_cert_path and client_cert_data": a path and data for one entry.
    return { problems: [{ variable: profileSource, message: (error as Error).message }, ...flags] };
  }
  // Paired before the files are read, which turns each path into data.
  const pairing = pairProblems(profile, env, profileSource);
  const problems = [...flags, ...pairing, ...readTlsFiles(profile, env, profileSource)];
  if (problems.length > 0) return { problems };
  const { connectionOptions, namespace } = toClientOptions(profile);
  const tls = connectionOptions.tls;
  return {
    problems: [],
    profile: {
      source: profileSource,
      address: connectionOptions.address,
      namespace: namespace ?? 'default',
      apiKey: connectionOptions.apiKey,
      tls: tls === true ? {} : (tls ?? false),
      metadata: profile.grpcMeta,
    },
  };
}
