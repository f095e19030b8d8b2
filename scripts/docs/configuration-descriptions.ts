/**
 * What each environment variable of src/config/ and devkit/config.ts means, for docs/configuration.md; its
 * name, default and accepted values come from the schema itself. `unset` says what leaving it unset does when
 * the schema has no default value; `shownDefault` replaces a default the page should not print as is.
 */
export interface VariableDescription {
  meaning: string;
  unset?: string;
  shownDefault?: string;
}

export const variableDescriptions: Record<string, VariableDescription> = {
  BANKFLOW_ENV: {
    meaning:
      'unset is `production`, which refuses unsafe settings (see [security.md](security.md)); only `bankflow dev` ' +
      '(so `npm start`) and `bankflow cluster` default to `development`, and the tests set it; `sandbox` and `demo` run only in development; any other value is refused',
  },
  LOG_LEVEL: { meaning: 'pino level' },
  BANKFLOW_DATA_DIR: { meaning: 'where the embedded dev server keeps its SQLite database' },
  PATH: { meaning: 'searched for a `temporal` binary when `TEMPORAL_CLI` is unset' },
  TEMPORAL_TASK_QUEUE: { meaning: 'task queue the workers poll and the starters use' },
  TEMPORAL_PLAINTEXT_ALLOWED: {
    meaning:
      'production refuses a Temporal profile without TLS (asked for, or turned on by a certificate, a CA or an API ' +
      'key) unless this is true (a sidecar or service mesh encrypts it)',
  },
  TEMPORAL_CLI: { meaning: 'path of the `temporal` binary to use' },
  TEMPORAL_ENCRYPTION_KEYS: {
    meaning:
      '`id:base64key,...` (32-byte keys), current first: every Temporal payload, and the message and stack trace ' +
      'of every failure, is encrypted with AES-256-GCM ([security.md](security.md)); required in production',
    unset: 'a public development key',
  },
  TEMPORAL_MAX_CACHED_WORKFLOWS: {
    meaning:
      'workflows a worker keeps in memory between tasks (0.1 to 0.3 MB each); an evicted one replays its history ' +
      'on its next task (80 to 100 ms for a settled payment); `0` disables the cache. Size the heap rather than the cache: ' +
      "`NODE_OPTIONS=--max-old-space-size=<MB>` caps each of the worker's two V8 heaps, the workflow thread's " +
      'included, and the cache follows ([performance.md](performance.md))',
    unset: "1 MB a workflow in half the V8 heap limit: 67 at a 128 MB heap, 2,072 at V8's own 4 GB",
  },
  TEMPORAL_DEPLOYMENT_NAME: {
    meaning:
      "the Worker Deployment a worker's version belongs to; the version's build id is the hash of the workflow " +
      'bundle, so workers built from the same code share a version ([upgrading-workflows.md](upgrading-workflows.md))',
    unset: 'the task queue (`TEMPORAL_TASK_QUEUE`)',
  },
  WORKER_VERSION_PROMOTION: {
    meaning:
      "when a worker makes its own version the deployment's current one, which new runs go to: `never` (an " +
      'operator runs `bankflow deployments promote`), `if-no-current` (only the first version of a deployment), ' +
      '`always` (at every start)',
    unset: '`never` in production, `always` in development',
  },
  METRICS_HOST: {
    meaning:
      'where a worker serves its Prometheus metrics, and the receiver its `WEBHOOK_INTERNAL_PORT` ' +
      '([operations.md](operations.md))',
  },
  TEMPORAL_METRICS_PORT: {
    meaning: "port of the Temporal SDK's own metrics (`/metrics`); a port in use is logged and skipped",
    unset: 'not served',
  },
  WORKER_METRICS_PORT: {
    meaning: "port of bankflow's bank-call metrics (`/metrics`); a port in use is logged and skipped",
    unset: 'not served',
  },
  WORKER_SHUTDOWN_GRACE_SECONDS: {
    meaning:
      'how long a worker told to stop (SIGTERM, Ctrl-C) takes no new task and lets the activities under way ' +
      'finish (a bank call, a notification POST, the page of an attempts sync in flight); those still running then ' +
      "are cancelled and tried again on another worker; `0` cancels them at once. Set the platform's termination " +
      'grace period above it ([operations.md](operations.md#stopping-a-worker))',
  },
  TEMPORAL_DEV_PORT: {
    meaning:
      "gRPC port of the embedded dev server, or of `bankflow cluster`'s Temporal server (its other services take this minus 300 to this plus 10; at most 33061)",
  },
  TEMPORAL_UI_PORT: { meaning: 'Web UI port of the embedded dev server or of `bankflow cluster`' },
  CLUSTER_POSTGRES_PORT: { meaning: "port of `bankflow cluster`'s private PostgreSQL (127.0.0.1 only)" },
  CLUSTER_POSTGRES_BIN: {
    meaning: "directory holding PostgreSQL's `initdb` and `postgres` for `bankflow cluster`",
    unset: "Debian's newest `/usr/lib/postgresql/<major>/bin`, installed with apt-get if missing",
  },
  CLUSTER_WORKERS: { meaning: 'worker processes `bankflow cluster` runs' },
  CLUSTER_OBJECT_STORE_PORT: {
    meaning:
      "S3 port of a SeaweedFS object store `bankflow cluster` runs (the 9 ports above it for SeaweedFS's other " +
      'services), whose bucket its workers keep reports in',
    unset: 'no object store: the workers write to `REPORTS_DIR`',
  },
  BANK_BASE_URL: { meaning: "the bank's `{base_url}`", unset: 'the sandbox bank' },
  BANK_CLIENT_ID: { meaning: 'HTTP Basic user (`client_id`) at the bank' },
  BANK_CLIENT_SECRET: { meaning: 'HTTP Basic password (`client_secret`) at the bank' },
  BANK_TIMEOUT_MS: { meaning: 'timeout of one bank request, in milliseconds' },
  BANK_RATE_LIMIT_PER_SECOND: {
    meaning:
      'bank calls per second across every worker on the task queue together, paced by Temporal and split ' +
      'between the interactive, background and polls bank queues ([operations.md](operations.md)); above 0; the ' +
      'same value on every worker',
    unset: 'no limit',
  },
  BANK_INTERACTIVE_SHARE_PERCENT: {
    meaning:
      'the part of `BANK_RATE_LIMIT_PER_SECOND` kept for the bank calls a customer waits on (creates, options, ' +
      'authorizes, registers); polls, sync and report pages and metrics get the rest. 1 to 99; the same value on ' +
      'every worker',
  },
  BANK_POLL_READS_PER_SECOND: {
    meaning:
      "the journeys' polls' part of the background share (what `BANK_INTERACTIVE_SHARE_PERCENT` leaves), reads " +
      'per second across the fleet, the rate of the polls task queue; as more journeys are open each polls less ' +
      'often within it. Unset: half the background share. Needs `BANK_RATE_LIMIT_PER_SECOND`, and leaves sync, ' +
      'report and metrics pages at least 1/s; the same value on every worker',
  },
  SANDBOX_HOST: { meaning: 'where the sandbox bank listens' },
  SANDBOX_PORT: { meaning: 'where the sandbox bank listens (`0`: a free port)' },
  SANDBOX_SEED: { meaning: "seed of the sandbox's data and injected faults" },
  SANDBOX_WEBHOOK_URL: {
    meaning: 'where the sandbox delivers its webhooks',
    unset: '`bankflow dev`: its own receiver; `bankflow sandbox`: nowhere',
  },
  SANDBOX_RATE_LIMIT_PER_SECOND: {
    meaning:
      "the sandbox bank's own limit: beyond it, 429 with `Retry-After` (bursts of two seconds' worth pass)",
    unset: 'no limit',
  },
  SANDBOX_CONTROL_TOKEN: {
    meaning:
      "the sandbox control API's bearer token (`/sandbox/...`); the CLI sends it too, else reads the running stack's " +
      '`<BANKFLOW_DATA_DIR>/sandbox-control-token`',
    unset: '`bankflow dev` and `bankflow sandbox` generate one per run, print it and leave it in that file',
  },
  SANDBOX_WEBHOOK_SECRET: {
    meaning:
      'the secret the sandbox signs its webhooks with; the receiver trusts it in development when `WEBHOOK_SECRET` ' +
      'is unset',
    shownDefault: 'a development secret',
  },
  CODEC_HOST: { meaning: 'where the codec server listens' },
  CODEC_PORT: { meaning: 'where the codec server listens' },
  CODEC_AUTH_USERS: {
    meaning:
      '`user:password` pairs (HTTP Basic) for the codec server, which may decode only; this or `CODEC_AUTH_TOKENS` ' +
      'is required in production (in development each start also generates a token)',
  },
  CODEC_AUTH_TOKENS: { meaning: 'bearer tokens for tools calling the codec server, which may decode only' },
  CODEC_ENCODE_USERS: {
    meaning:
      "`user:password` pairs that may also call `/encode`, as the Temporal UI's signal dialog does: an encoded " +
      "payload is one workers take as bankflow's own, so this is a permission of its own ([security.md](security.md))",
    unset: 'no user encodes',
  },
  CODEC_ENCODE_TOKENS: {
    meaning: 'bearer tokens that may also call `/encode`; in development the generated token may',
    unset: 'no token encodes',
  },
  CODEC_CORS_ORIGINS: {
    meaning: 'Temporal UI origins allowed to call the codec server',
    unset: 'the embedded UI',
  },
  API_HOST: { meaning: 'where the merchant HTTP API (`bankflow api`) listens' },
  API_PORT: { meaning: 'where the merchant HTTP API (`bankflow api`) listens' },
  API_KEYS: {
    meaning:
      '`name:sha256` entries, comma-separated: the hashes of the keys that open the merchant API, several at once ' +
      'so a key rotates by adding the new one before removing the old (`bankflow api-key create <name>` prints a ' +
      'key and its entry); required by `bankflow api` in production, which refuses the development key',
    unset:
      'in development, the public development key alone (`bankflow dev` prints it); in production `bankflow api` refuses to start',
  },
  API_RATE_LIMIT_PER_MINUTE: {
    meaning: 'requests one API key may make per minute on each API process; past it, 429 with Retry-After',
  },
  WEBHOOK_HOST: { meaning: 'where the webhook receiver listens' },
  WEBHOOK_PORT: { meaning: 'where the webhook receiver listens' },
  WEBHOOK_INTERNAL_PORT: {
    meaning:
      "serves the receiver's `/metrics` and `/readyz` on `METRICS_HOST` at this port, and no longer on " +
      '`WEBHOOK_PORT`, which keeps `POST /webhooks` and `/healthz` ([operations.md](operations.md))',
    unset: '`/metrics` and `/readyz` on `WEBHOOK_PORT`',
  },
  NOTIFY_ENDPOINTS: {
    meaning:
      "the merchant's endpoints, comma-separated, that each payment state is POSTed to, signed " +
      '([merchant-notifications.md](merchant-notifications.md)); production refuses `http://` except to loopback',
    unset: 'no notification is sent',
  },
  NOTIFY_SECRET: {
    meaning:
      'the secret notifications are signed with (`Bankflow-Signature`); required with `NOTIFY_ENDPOINTS`',
  },
  NOTIFY_SECRET_PREVIOUS: {
    meaning:
      'the previous notification secret: each notification is signed with both while the merchant moves over',
  },
  NOTIFY_TEST_SPEEDUP: {
    meaning:
      "bankflow's own real-time tests and the chaos run only: divides the notifications' first retry interval " +
      "(30 s), its cap (1 h), and each attempt's timeouts by this factor; the 3-day delivery window stays. " +
      'Refused with `BANKFLOW_ENV=production`',
    unset: "the merchant's timings",
  },
  WEBHOOK_SECRET: {
    meaning: 'the webhook secret; the receiver refuses to start without one outside development',
    unset: "the sandbox's secret in development",
  },
  WEBHOOK_SECRET_PREVIOUS: { meaning: 'the previous webhook secret, accepted too while the secret rotates' },
  WEBHOOK_AUTH_DISABLED: { meaning: 'accept unauthenticated webhooks (local development only)' },
  WEBHOOK_ACCEPT_SECRET_HEADER: {
    meaning:
      'accept a webhook that carries only `x-webhook-secret` and no `x-webhook-signature`, for a bank that cannot ' +
      'sign; the secret then works as a bearer token (anyone who reads one request can post any body), see ' +
      '[security.md](security.md)',
  },
  WEBHOOK_MAX_AGE_SECONDS: {
    meaning:
      'refuse webhooks whose envelope timestamp is older (or further in the future) than this, and answer a ' +
      "replay inside it without a new signal; keep it above the bank's retry span; `0` turns it off (refused in " +
      'production)',
  },
  REPORTS_DIR: {
    meaning: 'where reports, staged pages and snapshots go with `REPORTS_STORE=directory` (default)',
    unset: '`<BANKFLOW_DATA_DIR>/reports`',
  },
  REPORTS_STORE: {
    meaning:
      '`directory` (`REPORTS_DIR`) or `s3`: an S3-compatible bucket every worker reaches, holding staged pages, ' +
      'reports and metrics snapshots (see [operations.md](operations.md#reports-in-an-s3-bucket))',
  },
  REPORTS_S3_BUCKET: { meaning: 'the bucket; required when `REPORTS_STORE=s3`' },
  REPORTS_S3_PREFIX: {
    meaning: 'prepended to every object key, e.g. `bankflow/reports/`',
    shownDefault: "empty (the bucket's root)",
  },
  REPORTS_S3_ENDPOINT: {
    meaning: "an S3-compatible server's URL (SeaweedFS, MinIO, Ceph); https in production",
    unset: 'AWS S3 in `REPORTS_S3_REGION`',
  },
  REPORTS_S3_REGION: { meaning: "the bucket's region; required in production", unset: '`us-east-1`' },
  REPORTS_S3_ACCESS_KEY_ID: {
    meaning: 'the access key id; required in production, with `REPORTS_S3_SECRET_ACCESS_KEY`',
    unset: "the AWS SDK's default credential chain (development only)",
  },
  REPORTS_S3_SECRET_ACCESS_KEY: {
    meaning: 'the secret access key (never printed); required in production, with `REPORTS_S3_ACCESS_KEY_ID`',
    unset: "the AWS SDK's default credential chain (development only)",
  },
  REPORTS_S3_FORCE_PATH_STYLE: {
    meaning: 'address the bucket in the path (`https://host/bucket/key`); most S3-compatible servers need it',
  },
  METRICS_BANK_ACCOUNT_IDS: {
    meaning: 'comma-separated bank account uuids the metrics snapshot reads',
    unset: 'none',
  },
  SCHEDULE_ID_PREFIX: {
    meaning: 'prefix of every schedule id, so several deployments can share a namespace',
  },
  SCHEDULE_TIME_ZONE: { meaning: 'IANA time zone the cron expressions are read in' },
  SCHEDULE_ATTEMPTS_SYNC_CRON: { meaning: 'cadence of the attempts sync' },
  SCHEDULE_METRICS_CRON: { meaning: 'cadence of the metrics snapshot' },
  SCHEDULE_REPORTS_CRON: { meaning: 'cadence of the refund and transfer reports' },
  CHECKOUT_PORT: { meaning: 'where `bankflow dev` serves the reference checkout page (on localhost)' },
  CHECKOUT_PUBLIC_URL: {
    meaning:
      "the checkout's address as customers' browsers reach it: the only `Host` it answers (421 otherwise), " +
      'where the bank sends customers back (`return_to_url`), and `https` makes its session cookie `Secure`',
    unset: '`http://localhost:<CHECKOUT_PORT>`',
  },
  OTEL_TRACES_EXPORTER: {
    meaning:
      '`otlp` exports traces over OTLP/HTTP, `none` turns tracing off whatever else is set; see [operations.md](operations.md), Traces',
    unset: 'on when an OTLP endpoint below is set, off otherwise',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    meaning:
      "your collector's OTLP/HTTP base URL (traces go to `<url>/v1/traces`), e.g. `http://otel-collector:4318`",
    unset: '`http://localhost:4318` when `OTEL_TRACES_EXPORTER=otlp`, else no traces',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    meaning: 'the full URL traces are sent to, used as given; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`',
    unset: 'from `OTEL_EXPORTER_OTLP_ENDPOINT`',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    meaning: 'headers sent with every export, `key=value` pairs separated by commas (a collector API key)',
    unset: 'none',
  },
  OTEL_SERVICE_NAME: { meaning: 'the `service.name` of this process in its spans, e.g. `bankflow-worker`' },
  SUPPORT_LOOKUP_SECRET: {
    meaning:
      "keys the HMAC-SHA256 of a customer's CPF/CNPJ that workflows carry as `BankflowCustomerKey`, so support " +
      'staff find a customer without the number reaching Temporal; at least 32 characters, required in production; ' +
      'see [support.md](support.md)',
    unset: 'a public development secret',
  },
  TEMPORAL_UI_URL: {
    meaning: 'the Temporal UI support staff open; the links `bankflow support` prints point there',
    unset: "`http://localhost:<TEMPORAL_UI_PORT>`, the embedded dev server's",
  },
};

/**
 * Temporal's own connection variables, read by `@temporalio/envconfig` as Temporal's CLI reads them
 * (src/config/temporal-profile.ts); each overrides the same entry of the `temporal.toml` profile.
 */
export const temporalVariableDescriptions: Record<string, string> = {
  TEMPORAL_PROFILE:
    'the profile of `temporal.toml` to read; `default` when unset; a name the file lacks is refused',
  TEMPORAL_CONFIG_FILE:
    'the `temporal.toml` to read; unset, `temporalio/temporal.toml` in the user config directory ' +
    '(`$XDG_CONFIG_HOME` or `~/.config` on Linux), read only if it exists; a file named here must exist',
  TEMPORAL_ADDRESS:
    '`host:port` of your Temporal server; unset (here and in the profile), `bankflow dev` starts an embedded one ' +
    'and other commands use `localhost:7233`',
  TEMPORAL_NAMESPACE: 'Temporal namespace; `default` when unset',
  TEMPORAL_API_KEY: 'API key (Temporal Cloud); turns TLS on unless `TEMPORAL_TLS=false`',
  TEMPORAL_TLS:
    "`true` or `1` turns TLS on (the system's root certificates), `false` or `0` off; any other value is refused",
  TEMPORAL_TLS_CLIENT_CERT_PATH: 'mTLS client certificate file; needs the client key',
  TEMPORAL_TLS_CLIENT_CERT_DATA: 'the mTLS client certificate itself (PEM), instead of a file',
  TEMPORAL_TLS_CLIENT_KEY_PATH: 'mTLS client key file; needs the client certificate',
  TEMPORAL_TLS_CLIENT_KEY_DATA: 'the mTLS client key itself (PEM), instead of a file',
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: 'CA bundle of a self-hosted cluster; turns TLS on',
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'the CA bundle itself (PEM), instead of a file',
  TEMPORAL_TLS_SERVER_NAME: 'overrides the TLS server name; turns TLS on',
  TEMPORAL_TLS_DISABLE_HOST_VERIFICATION:
    "refused when true: Temporal's TypeScript SDK always verifies the server; set `TEMPORAL_TLS_SERVER_NAME` instead",
  TEMPORAL_GRPC_META_: "a gRPC header sent on every call (`_` becomes `-`); empty drops the profile's",
};
