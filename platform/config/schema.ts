/**
 * Every environment variable a cardflow process reads, one entry each: meaning, default, readers
 * and rule. README's table is generated from it (`npm run config-table`, checked by a test), and
 * every entry point checks all of it before contacting anything, listing every problem (exit 2).
 * A new variable is one entry here, read through {@link readConfiguration} and
 * {@link configured}. Not here: `@temporalio/envconfig`'s own `TEMPORAL_TLS_*` and profile
 * settings, the OpenTelemetry SDK's `OTEL_*` beyond those cardflow reads, and tools' `BENCH_*`.
 */
import { z } from 'zod';
import { AMOUNT_RE } from './values/amount';
import { parseDuration } from './values/duration';
import { parseLogLevel } from './values/log-level';
import { parseMetricsAddress } from './values/metrics-address';
import { DEFAULT_TRACE_RATIO, parseSamplerName, parseSamplerRatio } from './values/sampler';
import {
  EnvironmentError,
  type EnvironmentOptions,
  type InterlockConfiguration,
  KEY_FILE_VARIABLES,
  resolveEnvironment,
} from './environment';
import { parseBootstrap, parseDeploymentName, parseOnOff } from './versioning-variables';
import { parseOrigins } from './values/origins';
import { RECONCILE_WINDOW_DEFAULTS } from './values/reconcile-windows';
import { DEFAULT_TASK_QUEUE } from './values/task-queue';
import { NOTIFICATION_FORMATS } from './values/notify-format';
import { parseResourceAttributes } from './resource-attributes';
import { parseOtlpProtocol, parseTraceExporter } from './values/otlp-export';
import { processEnv } from './process-env';
import {
  defaultText,
  type Env,
  rules,
  secretFile,
  secretText,
  type Sourced,
  type Variable,
  variable,
} from './variable';

const duration = (atLeastMs = 0, atLeast = '') =>
  z
    .string()
    .refine((v) => parseDuration(v) !== undefined, { message: 'must be a duration such as 90s, 15m, 1h or 2d' })
    .transform((v) => parseDuration(v)!)
    .refine((ms) => ms >= atLeastMs, { message: `must be at least ${atLeast}` });
const amount = () =>
  z.string().refine((v) => AMOUNT_RE.test(v), { message: 'must be a decimal amount such as "1000.00"' });
/** A value checked by the parser its reader uses, so the rule is written once. */
const parsedBy = <T>(parse: (text: string) => T) =>
  z.string().transform((v, ctx) => {
    try {
      return parse(v);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
/**
 * Secrets are checked for their source here (set once, file readable); their format by the key
 * loaders.
 */
const secret = () => z.string();

export const VARIABLES = {
  // Temporal
  TEMPORAL_ADDRESS: variable({
    description:
      'Temporal frontend `host:port` (read through `@temporalio/envconfig` with `TEMPORAL_API_KEY`, `TEMPORAL_TLS_*`, `TEMPORAL_PROFILE`, `TEMPORAL_CONFIG_FILE`, as the Temporal CLI reads them; Temporal Cloud by API key or mTLS)',
    default: '127.0.0.1:7233',
    readBy: 'every process',
    schema: rules.text(),
  }),
  TEMPORAL_NAMESPACE: variable({
    description: 'Temporal namespace',
    default: 'default',
    readBy: 'every process',
    schema: rules.text(),
  }),
  TEMPORAL_API_KEY: variable({
    description:
      'API key of a Temporal Cloud namespace (or a server that takes one); TLS is switched on with it (`@temporalio/envconfig`)',
    unset: 'unset: no key',
    readBy: 'every process',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_TEMPORAL_ADDRESS: variable({
    description: "the worker's alias of `TEMPORAL_ADDRESS`, preferred when both are set",
    unset: '`TEMPORAL_ADDRESS`',
    readBy: 'worker',
    schema: rules.text(),
  }),
  CARDFLOW_TEMPORAL_NAMESPACE: variable({
    description: "the worker's alias of `TEMPORAL_NAMESPACE`, preferred when both are set",
    unset: '`TEMPORAL_NAMESPACE`',
    readBy: 'worker',
    schema: rules.text(),
  }),
  CARDFLOW_TASK_QUEUE: variable({
    description: 'task queue of the worker; its probes run on `<queue>-probes`',
    default: DEFAULT_TASK_QUEUE,
    readBy: 'worker, CLI, webhook receiver',
    schema: rules.text(),
  }),
  CARDFLOW_TEMPORAL_RIDE_OUT_MS: variable({
    description:
      'how long the CLI waits for a Temporal that is down or not serving (a restart of a frontend, a history host or PostgreSQL) before it exits 4; `0` tries once (platform/temporal/unavailable-retry.ts, docs/timeouts.md). With `0`, nothing listening at the address fails in 2 s',
    default: '60000',
    readBy: 'CLI',
    schema: z.string().regex(/^\d+$/, { message: 'must be whole milliseconds' }).transform(Number),
  }),
  CARDFLOW_TEMPORAL_UI_URL: variable({
    description: 'the Temporal UI the CLI and `npm start` link to',
    default: 'http://127.0.0.1:8233',
    readBy: 'CLI, npm start',
    schema: rules.url(),
  }),
  CARDFLOW_NAMESPACE_RETENTION_DAYS: variable({
    description:
      'retention of closed workflows in the namespace the set-up job creates (tools/deploy/setup-temporal.ts)',
    default: '30',
    readBy: 'set-up job',
    schema: rules.wholeNumber(1, 3650, ' of days'),
  }),
  // Worker
  CARDFLOW_WORKER_CACHE_BUDGET_MIB: variable({
    description:
      'memory for the workflow cache, about 2 MiB per cached workflow: thousands of parked onboardings stay within it (an evicted one replays its short history when woken)',
    default: '384',
    unset: '(192 cached)',
    readBy: 'worker',
    schema: rules.wholeNumber(2),
  }),
  CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: variable({
    description: 'the cache size itself, instead of the budget',
    unset: 'from the budget',
    readBy: 'worker',
    schema: rules.wholeNumber(0),
  }),
  CARDFLOW_WORKER_HEAP_MIB: variable({
    description:
      'V8 heap limit of the workflow threads, so V8 collects what evicted workflows leave instead of growing the heap (a `--max-old-space-size` of your own in `NODE_OPTIONS` takes precedence)',
    unset: "the cache's 2 MiB each plus 128 (`512`)",
    readBy: 'worker',
    schema: rules.wholeNumber(64),
  }),
  CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES: variable({
    description: 'activities running at once on the task queue',
    unset: "the SDK's (100)",
    readBy: 'worker',
    schema: rules.wholeNumber(1),
  }),
  CARDFLOW_PROBES_PER_SECOND: variable({
    description:
      "probes of long waits (reviews, work orders, late operations) started per second on the probe queue, across every worker: the share of the provider's capacity parked customers may take",
    default: '20',
    readBy: 'worker',
    schema: rules.wholeNumber(1),
  }),
  CARDFLOW_PROBE_SLOTS: variable({
    description:
      "probes running at once in one worker (their own slots: probes never take a customer's card creation's)",
    default: '50',
    readBy: 'worker',
    schema: rules.wholeNumber(1),
  }),
  CARDFLOW_DEPLOYMENT_NAME: variable({
    description:
      'the Worker Deployment this worker is a version of; its build id is the hash of the workflow bundle it runs (docs/versioning.md)',
    default: 'cardflow',
    readBy: 'worker, npm start, CLI',
    schema: parsedBy(parseDeploymentName),
  }),
  CARDFLOW_WORKER_VERSIONING: variable({
    description: '`off` polls unversioned: only for the move from unversioned workers (docs/versioning.md)',
    default: 'on',
    readBy: 'worker, npm start',
    schema: parsedBy(parseOnOff),
  }),
  CARDFLOW_DEPLOYMENT_BOOTSTRAP: variable({
    description:
      '`on`: make this version current when the deployment never had one (a fresh installation); `always`: at every start; `off`: never (rollouts by `cardflow deployment`)',
    default: 'on',
    unset: '(`always` under `npm start`)',
    readBy: 'worker, npm start',
    schema: parsedBy(parseBootstrap),
  }),
  CARDFLOW_WORKFLOW_BUNDLE: variable({
    description: "a prebuilt workflow bundle to run instead of the build's own (another build beside this one)",
    unset: "the build's own bundle",
    readBy: 'worker',
    schema: rules.text(),
  }),
  CARDFLOW_WORKER_HEALTH_ADDRESS: variable({
    description:
      '`host:port` where the worker serves `GET /healthz` and `GET /readyz` (ready while it polls and Temporal answers; docs/production.md, "Health")',
    unset: 'unset: no listener',
    readBy: 'worker',
    schema: rules.hostPort(),
  }),
  // Provider
  CARDFLOW_PROVIDER_BASE_URL: variable({
    description: 'the provider; set it to leave the sandbox',
    unset: 'the sandbox `npm start` runs',
    readBy: 'worker, receiver, CLI sandbox commands',
    schema: rules.url(),
  }),
  CARDFLOW_PROVIDER_API_KEY: variable({
    description: '`X-WSB-API-KEY`',
    readBy: 'worker, CLI sandbox commands',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_MERCHANT_PRIVATE_KEY: variable({
    description: 'merchant RSA private key (PEM, or base64 PKCS#8 DER): signs requests, decrypts card data',
    readBy: 'worker',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_MERCHANT_PUBLIC_KEY: variable({
    description:
      'merchant RSA public key: the client and CLI seal PINs with it (default: the public half of the private key, on one machine)',
    readBy: 'CLI, client',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_PLATFORM_PUBLIC_KEY: variable({
    description: 'platform RSA public key (PEM or base64 X.509 DER): verifies responses and webhooks',
    readBy: 'worker, receiver',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_PROVIDER_TIMEOUT_MS: variable({
    description: 'per-request timeout',
    default: '15000',
    readBy: 'worker',
    schema: z
      .string()
      .regex(/^[1-9]\d*$/, { message: 'must be a positive whole number of milliseconds' })
      .transform(Number),
  }),
  CARDFLOW_PROVIDER_CONNECTIONS: variable({
    description: 'keep-alive connections to the provider per process',
    // Enough for a worker's provider calls in flight at once (each activity holds a connection only
    // for the duration of one request); a provider hanging on every connection stalls the others.
    default: '32',
    readBy: 'worker',
    schema: rules.wholeNumber(1, 9999),
  }),
  CARDFLOW_VERIFY_RESPONSE_SIGNATURES: variable({
    description: 'verify `X-WSB-SIGNATURE` on responses',
    default: 'true',
    readBy: 'worker',
    schema: rules.flag(),
  }),
  // Stores
  CARDFLOW_FILE_STORE_DIR: variable({
    description: 'where supporting files for work orders are kept (content-addressed), read by every worker',
    default: '.data/files',
    readBy: 'worker',
    schema: rules.text(),
  }),
  CARDFLOW_ROUTE_DIR: variable({
    description:
      'without a database: the folder of the webhook routes, which the workers record and the receiver reads, so every worker and the receiver of the machine name the same one',
    default: '.data/routes',
    readBy: 'worker, receiver',
    schema: rules.text(),
  }),
  CARDFLOW_REVEAL_LOG_DIR: variable({
    description:
      'without a database: the folder of the card-detail reveal log (who was shown which card, why, when; never a value), which also holds the per-card reveal limit, so every backend process of the machine names the same one',
    default: '.data/reveals',
    readBy: 'backend (client package), CLI',
    schema: rules.text(),
  }),
  CARDFLOW_REFERENCE_DIR: variable({
    description:
      "without a database: the folder of the provider's reference data as last read (regions, cities, mobile area codes, occupations), which the worker's schedule refreshes and the client's onboarding check reads, so every process of the machine names the same one",
    default: '.data/reference',
    readBy: 'worker, backend (client package), CLI',
    schema: rules.text(),
  }),
  CARDFLOW_FILE_RETENTION_DAYS: variable({
    description:
      'days a supporting file is kept after the provider confirmed its upload; then the worker deletes it (its fileId stays recorded). `0`: at the next hourly sweep',
    default: '7',
    readBy: 'worker',
    schema: rules.wholeNumber(0, 3_650, ' of days'),
  }),
  CARDFLOW_DATABASE_URL: variable({
    description:
      "production stores in PostgreSQL, shared by every replica: the receivers' delivery log and dedupe, the webhook routes the workers record, the work-order supporting files (`postgres://user:password@host:5432/db`; tables created at start)",
    unset:
      'unset: local files (`CARDFLOW_WEBHOOK_DATA_DIR`, `CARDFLOW_ROUTE_DIR`, `CARDFLOW_FILE_STORE_DIR`), one machine, one receiver',
    readBy: 'worker, receiver',
    fileForm: true,
    schema: z.string().regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' }),
  }),
  CARDFLOW_DATABASE_ADMIN_URL: variable({
    description:
      "PostgreSQL's administrator, for the database set-up job alone (tools/deploy/setup-database.ts): it creates the role and database `CARDFLOW_DATABASE_URL` names, with only the rights cardflow needs (`postgres://admin:password@host:5432/postgres`)",
    unset: 'unset',
    readBy: 'set-up job',
    fileForm: true,
    schema: z.string().regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' }),
  }),
  // Webhook receiver
  CARDFLOW_WEBHOOK_HOST: variable({
    description: 'address the webhook receiver binds (it also answers `GET /healthz` and `GET /readyz`)',
    default: '127.0.0.1',
    readBy: 'receiver',
    schema: rules.text(),
  }),
  CARDFLOW_WEBHOOK_PORT: variable({
    description: 'port of the webhook receiver (set but empty is an error, never "any free port")',
    default: '4100',
    readBy: 'receiver',
    schema: rules.port(),
  }),
  CARDFLOW_WEBHOOK_DRAIN_SECONDS: variable({
    description:
      "on SIGTERM the receiver fails `/readyz` at once and keeps accepting this long before it stops accepting connections, so a load balancer's health checks move traffic away first: at least their interval times their failure count",
    // Long enough for haproxy of `npm run cluster` (checks every 500 ms).
    default: '5',
    readBy: 'receiver',
    schema: rules.wholeNumber(0, 3_600, ' of seconds'),
  }),
  CARDFLOW_WEBHOOK_DATA_DIR: variable({
    description: "without a database: the receiver's delivery log and dedupe folder (one receiver)",
    default: '.data/webhooks',
    readBy: 'receiver',
    schema: rules.text(),
  }),
  // Notifications to the merchant's backend (docs/notifications.md)
  CARDFLOW_NOTIFY_URL: variable({
    description:
      "the merchant backend's endpoint that receives cardflow's signed notifications (onboarding, transfer, funding, reconciliation and 3DS events); with it `CARDFLOW_NOTIFY_SECRET` is required. https with `CARDFLOW_ENV=production`; plain http only to loopback elsewhere",
    unset: 'unset: no notifications, and workflows pay no action for them',
    readBy: 'worker, CLI',
    schema: rules.url(),
  }),
  CARDFLOW_NOTIFY_SECRET: variable({
    description:
      'the signing secret of the notifications (HMAC-SHA256), shared with the backend: at least 32 characters; with `CARDFLOW_NOTIFY_FORMAT=standard-webhooks` a `whsec_` secret (the base64 of 24 to 64 random bytes)',
    readBy: 'worker, CLI',
    fileForm: true,
    schema: z.string().min(32, { message: 'must be at least 32 characters' }),
  }),
  CARDFLOW_NOTIFY_PREVIOUS_SECRET: variable({
    description:
      'during a rotation of the signing secret (docs/notifications.md): the secret being replaced, still shared with the backend; every notification then carries a signature by each of the two. Same rule as `CARDFLOW_NOTIFY_SECRET`',
    unset: 'unset: one signature, by `CARDFLOW_NOTIFY_SECRET`',
    readBy: 'worker, CLI',
    fileForm: true,
    schema: z.string().min(32, { message: 'must be at least 32 characters' }),
  }),
  CARDFLOW_NOTIFY_FORMAT: variable({
    description:
      "how notifications are signed: `cardflow` (header `Cardflow-Signature: t=…,v1=<hex>`, verified by the client's `constructEvent`) or `standard-webhooks` (headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`, verified by the `standardwebhooks` libraries of any language, and by `constructEvent`)",
    default: 'cardflow',
    readBy: 'worker, CLI',
    schema: rules.oneOf(NOTIFICATION_FORMATS),
  }),
  CARDFLOW_NOTIFY_WINDOW: variable({
    description:
      'how long one notification is retried (backoff from 1 s to 1 min) before it is recorded undeliverable (`cardflow events list`); a workflow ends only after its notifications are delivered or recorded',
    default: '1h',
    readBy: 'worker',
    schema: duration(1000, '1s'),
  }),
  CARDFLOW_NOTIFY_DATA_DIR: variable({
    description: 'without a database: where undeliverable notifications are recorded (one machine)',
    default: '.data/notifications',
    readBy: 'worker, CLI',
    schema: rules.text(),
  }),
  // Codec
  CARDFLOW_CODEC_KEYS: variable({
    description: 'payload keys `id:base64key,...`, first is current (the file form holds the list or a JSON key file)',
    unset: 'a dev key generated once under `.data/codec/` (refused when `NODE_ENV=production`)',
    readBy: 'every process',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_CODEC_SERVER_HOST: variable({
    description: 'codec server address',
    default: '127.0.0.1',
    readBy: 'codec server',
    schema: rules.text(),
  }),
  CARDFLOW_CODEC_SERVER_PORT: variable({
    description: 'codec server port (`0`: any free port)',
    default: '8888',
    readBy: 'codec server',
    schema: rules.port(0),
  }),
  CARDFLOW_CODEC_SERVER_TOKEN: variable({
    description: 'codec server bearer token, at least 16 characters',
    readBy: 'codec server',
    fileForm: true,
    schema: secret(),
  }),
  CARDFLOW_CODEC_SERVER_ORIGINS: variable({
    description:
      'browser origins (`scheme://host[:port]`, comma-separated) of the Temporal UIs allowed to call the codec server',
    default: 'http://127.0.0.1:8233,http://localhost:8233',
    readBy: 'codec server',
    schema: parsedBy(parseOrigins),
  }),
  CARDFLOW_CODEC_SERVER_TOKENLESS: variable({
    description: 'when a codec request without a token is accepted: `never`, `loopback`, `any`',
    unset: '`loopback` (`never` when `NODE_ENV=production`)',
    readBy: 'codec server',
    schema: rules.oneOf(['never', 'loopback', 'any']),
  }),
  CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES: variable({
    description: 'largest request body of the codec server',
    default: '8388608',
    unset: '(8 MiB)',
    readBy: 'codec server',
    schema: rules.wholeNumber(1024, 256 * 1024 * 1024),
  }),
  // npm start and the dev server
  CARDFLOW_TEMPORAL_PORT: variable({
    description: 'port of the dev server `npm start` / `npm run dev-server` runs',
    default: '7233',
    readBy: 'npm start',
    schema: rules.port(),
  }),
  CARDFLOW_TEMPORAL_UI_PORT: variable({
    description: "port of that dev server's Web UI (the codec server allows its origin)",
    default: '8233',
    readBy: 'npm start',
    schema: rules.port(),
  }),
  CARDFLOW_SANDBOX_PORT: variable({
    description: 'port of the sandbox `npm start` runs',
    unset: 'a free port',
    readBy: 'npm start',
    schema: rules.port(),
  }),
  CARDFLOW_DEMO: variable({
    description: "`npm start`'s demo onboarding: `0` skips it",
    unset: 'on',
    readBy: 'npm start',
    schema: rules.text(),
  }),
  CARDFLOW_DEMO_FILE: variable({
    description: "the demo onboarding's input file",
    unset: '`client/examples/customer.json`',
    readBy: 'npm start',
    schema: rules.text(),
  }),
  CARDFLOW_DEMO_CUSTOMER_REF: variable({
    description: 'a fixed customer reference for the demo instead of a per-run one',
    unset: 'per run',
    readBy: 'npm start',
    schema: rules.text(),
  }),
  // Observability
  CARDFLOW_LOG_LEVEL: variable({
    description: 'JSON log level',
    default: 'info',
    readBy: 'every process',
    schema: z.string().transform((v, ctx) => {
      try {
        return parseLogLevel(v, '');
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be one of${(error as Error).message.split('is not one of')[1] ?? ''}`,
        });
        return z.NEVER;
      }
    }),
  }),
  CARDFLOW_METRICS_ADDRESS: variable({
    description:
      '`host:port` where this process (worker, webhook receiver, codec server; each its own) serves Prometheus metrics at `/metrics` (docs/observability.md lists them)',
    unset: 'unset: no metrics, no listener',
    readBy: 'worker, receiver, codec server',
    schema: parsedBy(parseMetricsAddress),
  }),
  CARDFLOW_METRICS_SAMPLE_SECONDS: variable({
    description:
      'worker with metrics: how often it reads visibility for the onboardings-by-stage and reconciliation gauges',
    default: '30',
    readBy: 'worker',
    schema: rules.wholeNumber(1, 99_999, ' of seconds'),
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable({
    description:
      "OpenTelemetry traces over OTLP/HTTP (the base URL) from the worker, the receiver and cardflow's client; `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS` as usual",
    unset: 'unset: no tracing, nothing installed',
    readBy: 'worker, receiver, client',
    schema: rules.url(),
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable({
    description: 'the full `/v1/traces` URL, instead of the base URL',
    unset: 'unset',
    readBy: 'worker, receiver, client',
    schema: rules.url(),
  }),
  OTEL_SDK_DISABLED: variable({
    description: '`true` turns tracing off',
    default: 'false',
    readBy: 'worker, receiver, client',
    schema: rules.text(),
  }),
  OTEL_TRACES_EXPORTER: variable({
    description:
      '`otlp` (to the endpoint above), `console` (each span printed on stdout, no endpoint needed) or `none` (tracing off); others are refused',
    default: 'otlp',
    readBy: 'worker, receiver, client',
    schema: parsedBy(parseTraceExporter),
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: variable({
    description: 'the OTLP encoding: `http/protobuf` or `http/json` (`grpc` is refused: cardflow exports over HTTP)',
    default: 'http/protobuf',
    readBy: 'worker, receiver, client',
    schema: parsedBy(parseOtlpProtocol),
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: variable({
    description: 'the same for traces alone, winning over `OTEL_EXPORTER_OTLP_PROTOCOL`',
    unset: 'unset',
    readBy: 'worker, receiver, client',
    schema: parsedBy(parseOtlpProtocol),
  }),
  OTEL_BSP_SCHEDULE_DELAY: variable({
    description: 'ms between two exports of the spans a process has buffered',
    default: '1000',
    readBy: 'worker, receiver, client',
    schema: rules.wholeNumber(1, 600_000, ' of milliseconds'),
  }),
  OTEL_SERVICE_NAME: variable({
    description: 'the `service.name` of the traces a process exports',
    unset: '`cardflow-<process>` (`cardflow-worker`, `cardflow-webhooks`, ...)',
    readBy: 'worker, receiver',
    schema: rules.text(),
  }),
  OTEL_RESOURCE_ATTRIBUTES: variable({
    description:
      'more attributes of the traces a process exports, `key=value` pairs separated by commas (`deployment.environment=production,service.namespace=payments`); `OTEL_SERVICE_NAME` wins over a `service.name` here',
    unset: 'unset: `service.name` and `service.version` only',
    readBy: 'worker, receiver',
    schema: parsedBy(parseResourceAttributes),
  }),
  OTEL_TRACES_SAMPLER: variable({
    description:
      'which traces a process keeps (head sampling, `platform/telemetry/sampler.ts`): `parentbased_traceidratio` (a trace begun here kept at the ratio, one a caller kept always kept), `parentbased_always_on`, `parentbased_always_off`, `traceidratio`, `always_on`, `always_off`. A workflow traces only when its start (or a signal) carries a kept trace',
    default: 'parentbased_traceidratio',
    readBy: 'worker, receiver, client',
    schema: parsedBy(parseSamplerName),
  }),
  OTEL_TRACES_SAMPLER_ARG: variable({
    description: 'the ratio of the `traceidratio` samplers, from 0 to 1 (a ratio sampler named without it: `1`)',
    unset: `\`${DEFAULT_TRACE_RATIO}\``,
    readBy: 'worker, receiver, client',
    schema: parsedBy(parseSamplerRatio),
  }),
  // Environment interlock
  CARDFLOW_ENV: variable({
    description:
      'exactly `sandbox` or `production` (any other value, a stray space or capital included, refuses to start, naming it): which provider this process may talk to; every entry point refuses a mixed configuration (`platform/config/environment.ts`: production needs `NODE_ENV=production`, https, a host that is neither loopback in any spelling (`localhost.`, `[::ffff:127.0.0.1]`, `0.0.0.0`, `2130706433`, `127.1`) nor a sandbox host, no `sandbox_` API key, no key files the sandbox generated, no dev codec key; `npm start` also needs `CARDFLOW_PROVIDER_BASE_URL`, or it would start its sandbox). Sandbox commands of the CLI call only loopback or a `CARDFLOW_SANDBOX_HOSTS` host',
    unset: 'unset: allowed only with a loopback provider (or none), treated as `sandbox`',
    readBy: 'every process',
    // Read untrimmed, then checked whole, with the variables it weighs, by resolveEnvironment
    // (readConfiguration).
    exact: true,
    schema: rules.text(),
  }),
  CARDFLOW_SANDBOX_HOSTS: variable({
    description:
      "comma-separated host names a `sandbox` environment may reach besides loopback (staging's `sandbox` service)",
    unset: 'none',
    readBy: 'every process',
    schema: rules.text(),
  }),
  NODE_ENV: variable({
    description:
      '`production` is required by `CARDFLOW_ENV=production`, refuses the dev codec key, and makes the codec server refuse token-less requests unless `CARDFLOW_CODEC_SERVER_TOKENLESS` says otherwise',
    unset: 'unset',
    readBy: 'every process',
    schema: rules.text(),
  }),
  // Reconciliation
  CARDFLOW_RECONCILE_INTERVAL: variable({
    description: 'how often the reconciliation schedule runs (`90s`, `15m`, `1h`, `2d`; at least 1m)',
    default: '1h',
    readBy: 'worker, CLI',
    schema: duration(60_000, '1m'),
  }),
  CARDFLOW_REFERENCE_REFRESH_INTERVAL: variable({
    description:
      "how often the worker's schedule reads the provider's reference data into the shared cache (`6h`, `1d`; at least 1m)",
    default: '1d',
    readBy: 'worker',
    schema: duration(60_000, '1m'),
  }),
  CARDFLOW_RECONCILE_SCHEDULE: variable({
    description: '`0`: the worker does not create the schedule (`cardflow reconcile --schedule` does)',
    unset: 'on',
    readBy: 'worker',
    schema: rules.text(),
  }),
  CARDFLOW_RECONCILE_OVERLAP: variable({
    description: "window: read back this far before the previous run's end",
    default: RECONCILE_WINDOW_DEFAULTS.CARDFLOW_RECONCILE_OVERLAP,
    readBy: 'worker, CLI',
    schema: duration(),
  }),
  CARDFLOW_RECONCILE_FIRST_LOOKBACK: variable({
    description: "the first run's lookback",
    default: RECONCILE_WINDOW_DEFAULTS.CARDFLOW_RECONCILE_FIRST_LOOKBACK,
    readBy: 'worker, CLI',
    schema: duration(),
  }),
  CARDFLOW_RECONCILE_OPERATION_SLA: variable({
    description: 'an operation pending longer is reported stuck',
    default: RECONCILE_WINDOW_DEFAULTS.CARDFLOW_RECONCILE_OPERATION_SLA,
    readBy: 'worker, CLI',
    schema: duration(),
  }),
  CARDFLOW_RECONCILE_REVIEW_SLA: variable({
    description: 'a cardholder review pending longer is reported stuck',
    default: RECONCILE_WINDOW_DEFAULTS.CARDFLOW_RECONCILE_REVIEW_SLA,
    readBy: 'worker, CLI',
    schema: duration(),
  }),
  CARDFLOW_RECONCILE_EVENT_GRACE: variable({
    description: 'a final order whose owner still runs this long after it is a missed event (re-delivered)',
    default: RECONCILE_WINDOW_DEFAULTS.CARDFLOW_RECONCILE_EVENT_GRACE,
    readBy: 'worker, CLI',
    schema: duration(),
  }),
  CARDFLOW_BALANCE_FLOOR: variable({
    description: "warn when the WALLET's available balance is below this (decimal)",
    unset: 'none',
    readBy: 'worker, CLI',
    schema: amount(),
  }),
  CARDFLOW_SHARED_ACCOUNT_FLOOR: variable({
    description: "warn when a MARGIN account's available balance is below this (decimal)",
    unset: 'none',
    readBy: 'worker, CLI',
    schema: amount(),
  }),
} satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;

/**
 * Each variable's parsed value; undefined when unset (or set to blanks). A variable with a file
 * form comes with the name it was read from.
 */
export type Configuration = {
  [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> & { fileForm?: infer F }
    ? ([F] extends [true] ? Sourced<T> : T) | undefined
    : never;
};

/** The variables whose schema entry holds a default. */
export type DefaultedName = {
  [K in VariableName]: (typeof VARIABLES)[K] extends { default: string } ? K : never;
}[VariableName];

/**
 * Each default read by its variable's rule, as a set value is: a default that breaks its rule fails
 * at load.
 */
const DEFAULTS: Record<string, unknown> = Object.fromEntries(
  (Object.entries(VARIABLES) as [string, Variable][])
    .filter(([, declaration]) => declaration.default !== undefined)
    .map(([name, declaration]) => [name, declaration.schema.parse(declaration.default)]),
);

/**
 * A variable's parsed value, else its schema default: how a reader takes a setting that has one,
 * so that each default is written once, in {@link VARIABLES}.
 */
export function configured<K extends DefaultedName>(
  config: ConfigurationSlice<K>,
  name: K,
): NonNullable<Configuration[K]> {
  return (config[name] ?? DEFAULTS[name]) as NonNullable<Configuration[K]>;
}

/** A variable's schema default, parsed: the default of a library option that the variable sets. */
export function schemaDefault<K extends DefaultedName>(name: K): NonNullable<Configuration[K]> {
  return configured({}, name);
}

/**
 * The parsed variables a module reads, from which it takes its settings: what an entry point
 * hands down after reading the configuration once. Partial, so a test or a tool names only the
 * variables it sets.
 */
export type ConfigurationSlice<K extends VariableName> = Partial<Pick<Configuration, K>>;

/** One or more variables are wrong; `problems` names each one and its rule. */
export class ConfigurationProblems extends Error {
  override readonly name = 'ConfigurationProblems';
  constructor(readonly problems: readonly string[]) {
    super(`the configuration is invalid:\n- ${problems.join('\n- ')}`);
  }
}

export interface ReadOptions extends EnvironmentOptions {
  /**
   * Leave out the CARDFLOW_ENV interlock: a process that talks to no provider (the Temporal set-up
   * job).
   */
  withoutInterlock?: boolean;
}

/**
 * Every variable of `env` parsed by its rule, its file form read; a {@link ConfigurationProblems}
 * naming every variable at fault, with the {@link resolveEnvironment} interlock's problems.
 * A variable set to the empty string is unset, except a port: an empty port is a mistake, never
 * "any free port". With nothing wrong but the interlock, its own {@link EnvironmentError}.
 */
export function readConfiguration(env: Env, options: ReadOptions = {}): Configuration {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const reads = new Map<VariableName, VariableRead>();
  for (const name of Object.keys(VARIABLES) as VariableName[]) {
    const read = parseVariable(env, name);
    reads.set(name, read);
    if ('problem' in read) problems.push(read.problem);
    else if (read.value !== undefined) values[name] = read.value;
  }
  // The interlock weighs several variables together; alone, its refusal keeps its own words.
  let refusal: EnvironmentError | undefined;
  try {
    if (!options.withoutInterlock) resolveEnvironment(interlockOf(reads, env), options);
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    refusal = error;
  }
  if (problems.length === 0 && refusal) throw refusal;
  const named = new Set(problems.map((p) => /^[A-Z0-9_]+/.exec(p)?.[0]));
  for (const problem of refusal?.problems ?? [])
    if (!named.has(/^[A-Z0-9_]+/.exec(problem)?.[0])) problems.push(problem);
  if (problems.length > 0) throw new ConfigurationProblems(problems);
  return values as Configuration;
}

/** The variables the interlock weighs (platform/config/environment.ts). */
const INTERLOCK_VARIABLES = [
  'CARDFLOW_ENV',
  'CARDFLOW_PROVIDER_BASE_URL',
  'CARDFLOW_SANDBOX_HOSTS',
  'NODE_ENV',
  'CARDFLOW_PROVIDER_API_KEY',
  'CARDFLOW_CODEC_KEYS',
  'CARDFLOW_NOTIFY_URL',
] as const satisfies readonly (VariableName & keyof InterlockConfiguration)[];

/**
 * What the interlock weighs, from the variables as read once: each parsed value; a provider URL its
 * rule refuses as its text, which the interlock refuses in its own words (a problem
 * readConfiguration lists once); the key files' `_FILE` paths, whose folders production checks.
 */
function interlockOf(reads: ReadonlyMap<VariableName, VariableRead>, env: Env): InterlockConfiguration {
  const config: Record<string, unknown> = {};
  for (const name of INTERLOCK_VARIABLES) {
    const read = reads.get(name) ?? parseVariable(env, name);
    const value = 'value' in read ? read.value : read.text;
    if (value !== undefined) config[name] = value;
  }
  const keyFiles = Object.fromEntries(
    KEY_FILE_VARIABLES.map((name) => [name, secretFile(env, name.replace(/_FILE$/, ''))]).filter(
      ([, file]) => file !== undefined,
    ),
  );
  return { ...(config as InterlockConfiguration), keyFiles };
}

/**
 * The interlock's variables of `env`, read by their rules as {@link readConfiguration} reads them:
 * for a caller that weighs the interlock alone ({@link resolveEnvironment}).
 */
export function readInterlock(env: Env): InterlockConfiguration {
  return interlockOf(new Map(), env);
}

/**
 * One variable as read: its parsed value, or the problem that names it (with the text its rule
 * refused, unless a secret).
 */
type VariableRead = { value: unknown } | { problem: string; text?: string };

/**
 * One variable parsed by its rule (undefined when unset), its file form read, or the problem that
 * names it. A variable set to the empty string is unset, except a port: an empty port is a mistake,
 * never "any free port". An {@link Variable.exact} variable is parsed untrimmed.
 */
function parseVariable(env: Env, name: VariableName): VariableRead {
  const declaration: Variable = VARIABLES[name];
  let text: string | undefined;
  let from: string = name;
  if (declaration.fileForm) {
    try {
      const found = secretText(env, name);
      text = found?.text;
      from = found?.from ?? name;
    } catch (error) {
      return { problem: (error as Error).message };
    }
  } else {
    const raw = env[name];
    text = declaration.exact ? raw : raw?.trim();
    if (text === '' && raw !== undefined && /_PORT$/.test(name))
      return { problem: `${name}: is set but empty (unset it for the default ${defaultText(declaration)})` };
  }
  if (text === undefined || text === '') return { value: undefined };
  const parsed = declaration.schema.safeParse(text);
  if (!parsed.success) {
    const problem = `${from}: ${parsed.error.issues[0]?.message ?? 'is invalid'}`;
    // A secret's text never leaves its reading, not even refused.
    return declaration.fileForm ? { problem } : { problem, text };
  }
  return { value: declaration.fileForm ? { value: parsed.data, from } : parsed.data };
}

/**
 * One variable of the process's environment, read by its rule as {@link readConfiguration} reads
 * it: for a module that takes a setting of its own where no entry point hands one down (the
 * logger's level, whose loggers exist before and after the configuration is read). Throws a
 * {@link ConfigurationProblems} naming the variable when it breaks its rule.
 */
export function readVariable<K extends VariableName>(name: K, env: Env = processEnv()): Configuration[K] {
  const read = parseVariable(env, name);
  if ('problem' in read) throw new ConfigurationProblems([read.problem]);
  return read.value as Configuration[K];
}
