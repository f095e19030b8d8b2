import { z } from 'zod';
import { secret } from '../config-secrets.js';
import type { Parsed } from './fields.js';

const otlpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as http://127.0.0.1:4318' })
  .optional();
/** `key=value,key2=value2`, values percent-encoded, as the OpenTelemetry specification writes them. */
const otlpHeaders = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const headers: Record<string, string> = {};
    for (const pair of (value ?? '').split(',').filter((item) => item.trim() !== '')) {
      const at = pair.indexOf('=');
      const key = pair.slice(0, at).trim();
      if (at < 1 || key === '') {
        ctx.addIssue({ code: 'custom', message: 'must be key=value pairs separated by commas' });
        return z.NEVER;
      }
      try {
        headers[key] = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        ctx.addIssue({ code: 'custom', message: `the value of ${key} is not valid percent-encoding` });
        return z.NEVER;
      }
    }
    return headers;
  });

/** OpenTelemetry traces, read as the OpenTelemetry specification names the variables. */
export const tracingVariables = {
  /**
   * `otlp` sends traces to the OTLP/HTTP endpoint below, `none` sends none. Unset: on when an OTLP endpoint
   * is set, off otherwise (docs/operations.md, Traces).
   */
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'none'], {
      message: 'must be otlp or none (bankflow exports traces over OTLP/HTTP only)',
    })
    .optional(),
  /** The collector's base URL; traces go to `<url>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  /** The full traces URL, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl,
  /** `key=value` pairs, comma-separated, sent with every export (a collector's API key). */
  OTEL_EXPORTER_OTLP_HEADERS: secret(otlpHeaders),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('bankflow'),
};

export type TracingEnv = Parsed<typeof tracingVariables>;

/** Where this process sends its OpenTelemetry traces; tracing is off when Config.tracing is undefined. */
export interface TracingConfig {
  tracesUrl: string;
  headers: Record<string, string>;
  serviceName: string;
}

/**
 * The OTLP/HTTP default receiver of a collector on this host, as the OpenTelemetry specification names it.
 */
const defaultOtlpEndpoint = 'http://localhost:4318';

export function tracingConfig(env: TracingEnv): TracingConfig | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const wanted = env.OTEL_TRACES_EXPORTER ?? (endpoint || tracesEndpoint ? 'otlp' : 'none');
  if (wanted === 'none') return undefined;
  return {
    tracesUrl: tracesEndpoint ?? `${(endpoint ?? defaultOtlpEndpoint).replace(/\/+$/, '')}/v1/traces`,
    headers: env.OTEL_EXPORTER_OTLP_HEADERS,
    serviceName: env.OTEL_SERVICE_NAME,
  };
}
