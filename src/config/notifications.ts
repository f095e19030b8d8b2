import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { entries, optionalText, type Parsed } from './fields.js';

/** Comma-separated http(s) URLs, each trimmed; the position of a bad one is named. */
const urlList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const urls = entries(value);
    const bad = urls.findIndex((url) => !z.url({ protocol: /^https?$/ }).safeParse(url).success);
    if (bad >= 0) {
      ctx.addIssue({ code: 'custom', message: `entry ${bad + 1} must be an http:// or https:// URL` });
      return z.NEVER;
    }
    return urls;
  });

/**
 * Where the worker POSTs the merchant's notifications, and what it signs them with
 * (docs/merchant-notifications.md).
 */
export const notificationVariables = {
  /** The merchant's endpoints, comma-separated; each gets every event. Unset: no notification is sent. */
  NOTIFY_ENDPOINTS: urlList,
  /** The secret notifications are signed with (`Bankflow-Signature`); required with NOTIFY_ENDPOINTS. */
  NOTIFY_SECRET: secret(optionalText),
  /** The secret signed with before, while the merchant moves over: each notification then carries two v1. */
  NOTIFY_SECRET_PREVIOUS: secret(optionalText),
  /**
   * For bankflow's own real-time tests and the chaos run only (refused with BANKFLOW_ENV=production): divides
   * the first retry interval, its cap, each POST's timeout and each attempt's by this factor. The three-day
   * delivery window stays.
   */
  NOTIFY_TEST_SPEEDUP: z.coerce.number().int().min(1).max(1000).optional(),
};

export type NotificationEnv = Parsed<typeof notificationVariables>;

export interface NotificationsConfig {
  endpoints: string[];
  /** The current secret first. */
  secrets: string[];
  /** NOTIFY_TEST_SPEEDUP: 1 (the merchant's timings) unless a test run sets it. */
  speedup?: number;
}

export function notificationsConfig(env: NotificationEnv): NotificationsConfig {
  return {
    endpoints: env.NOTIFY_ENDPOINTS,
    secrets: [env.NOTIFY_SECRET, env.NOTIFY_SECRET_PREVIOUS].filter((value): value is string =>
      Boolean(value),
    ),
    ...(env.NOTIFY_TEST_SPEEDUP ? { speedup: env.NOTIFY_TEST_SPEEDUP } : {}),
  };
}

/** What no single variable shows, in every environment: an endpoint gets nothing unsigned. */
export function notificationProblems(env: NotificationEnv): { variable: string; message: string }[] {
  return env.NOTIFY_ENDPOINTS.length > 0 && env.NOTIFY_SECRET === undefined
    ? [
        {
          variable: 'NOTIFY_SECRET',
          message:
            'is required when NOTIFY_ENDPOINTS is set (every notification is signed; openssl rand -base64 32)',
        },
      ]
    : [];
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The positions (from 1) of the endpoints production refuses: plain http:// to anything but this host. */
export const plaintextEndpointPositions = (endpoints: string[]) =>
  endpoints.flatMap((url, index) => {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && !loopbackHosts.has(parsed.hostname) ? [String(index + 1)] : [];
  });
