// Configuration: one zod schema over process.env, parsed once at start-up.
// A bad variable fails fast with a message naming it. The names docs/design.md ("Contract") lists are a
// contract with outside tools; keep them.
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseAllowList } from './net/addresses.js';

const port = z.coerce.number().int().min(0).max(65535);
/** An optional number where an empty value (`FOO=`, as compose files pass unset ones) means unset, not 0. */
const optionalNumber = (schema: z.ZodType<number, unknown>) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((value) => (value === undefined ? undefined : ['true', '1', 'yes'].includes(value)));

/** 32 bytes, base64 (`openssl rand -base64 32`): canonical base64, so a typo is not silently read as other bytes. */
const secretKey = z
  .string()
  .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_KEY_PREFIX: z.string().default('svc:'),
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('ai-workspace'),
  /** Task queue of the run workflows and their activities; unset = `<TEMPORAL_TASK_QUEUE>-runs`. */
  TEMPORAL_RUNS_TASK_QUEUE: optionalString,
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  /** Origin of the Temporal Web UI, allowed with credentials on the codec endpoints; default http://localhost:$TEMPORAL_UI_PORT. */
  TEMPORAL_UI_ORIGIN: optionalString.pipe(z.url().optional()),
  // Connection to a production Temporal cluster (docs/operations.md, "Production deployment"): a PEM file path or the PEM text.
  TEMPORAL_TLS_CERT: optionalString,
  TEMPORAL_TLS_KEY: optionalString,
  TEMPORAL_TLS_CA: optionalString,
  TEMPORAL_API_KEY: optionalString,
  WORKFLOW_BUNDLE_PATH: optionalString,
  GATEWAY_CONFIG: optionalString,
  OPENAI_API_KEY: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  BOOTSTRAP_OWNER_EMAIL: z.email().default('owner@localhost'),
  BOOTSTRAP_OWNER_API_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^svc_live_[A-Za-z0-9]{32,}$/, 'must be svc_live_ followed by 32 or more letters and digits')
      .optional(),
  ),
  BOOTSTRAP_ORGANIZATION_NAME: z.string().min(1).default('My Organization'),
  SECRET_KEY: optionalString.pipe(secretKey.optional()),
  /** Earlier SECRET_KEYs, comma-separated: they still decrypt (stored secrets, Temporal payloads), never encrypt. */
  SECRET_KEY_PREVIOUS: optionalString.pipe(
    z
      .string()
      .refine((value) => value.split(',').every((key) => secretKey.safeParse(key.trim()).success), 'must be comma-separated 32-byte keys, base64-encoded')
      .optional(),
  ),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  MARKETPLACE_URL: optionalString.pipe(z.url().optional()),
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().default('AI Workspace <no-reply@localhost>'),
  METRICS_TOKEN: optionalString,
  /** On SIGTERM/SIGINT, how long in-flight requests, streams and worker activities get to finish. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  /** Port of the worker process's own GET /metrics (run outcomes, run tokens and cost); unset = off. */
  WORKER_METRICS_PORT: optionalNumber(port),
  /** `host:port` where the worker serves the Temporal SDK's Prometheus metrics; unset = off. */
  TEMPORAL_METRICS_BIND_ADDRESS: optionalString.pipe(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'expected host:port').optional()),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  /** How long POST /v1/responses keeps a stored response (`store`, the default) and its items, in days. */
  RESPONSES_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Retention (docs/operations.md "Retention and growth"): rows older than their window are deleted
  // in batches by the API process, hourly; 0 keeps them forever. The usage rollups are kept.
  /** Gateway request records (`gateway_requests`), in days. */
  GATEWAY_REQUESTS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  /** Usage records (`usage_records`), in days; never those of the current or previous UTC month (budgets and usage read them). */
  USAGE_RECORDS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  /** The audit log, in days. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(400),
  /** Finished automation runs and webhook executions (with their deliveries and approvals), in days. */
  RUNS_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
  /** Rows one retention statement deletes at most (one short statement each, a pause between). */
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** How often an API process deletes what is past its retention. */
  RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** How long an unsettled budget reservation holds budget without renewal before it lapses (docs/billing.md). */
  BUDGET_RESERVATION_TTL_SECONDS: z.coerce.number().int().min(1).default(600),
  /** Largest budget lease (USD) one API instance holds per organization for local admission; 0 = a Redis hold per request (docs/billing.md). */
  BUDGET_LEASE_MAX_USD: z.coerce.number().min(0).default(1),
  /** How often leases sync settled spend, renew, and re-check the cap: a lowered cap binds every instance within this (plus a round trip). */
  BUDGET_LEASE_SYNC_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  /** A lease not renewed for this long (its process died) lapses and its budget returns. */
  BUDGET_LEASE_TTL_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Webhook deliveries accepted per webhook id, and per client IP, per minute. */
  WEBHOOK_RATE_LIMIT_PER_WEBHOOK: z.coerce.number().int().positive().default(120),
  WEBHOOK_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(600),
  // Automations (docs/automations.md).
  /** Shortest allowed interval between two fires; below 60 a 6th (seconds) cron field is accepted. */
  AUTOMATION_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * How long before its fire a scheduled run's workflow is started to wait for it (at most half the
   * schedule's interval), so a burst of fires at one instant costs fewer workflow tasks then, for
   * more in all; 0 (the default) starts each run at its fire. docs/automations.md.
   */
  AUTOMATION_ARM_LEAD_SECONDS: z.coerce.number().int().min(0).max(600).default(0),
  /** A fire missed while workers or the Temporal server were down runs once on recovery if younger than this; the rest are counted as missedFires. */
  AUTOMATION_CATCHUP_WINDOW_SECONDS: z.coerce.number().int().min(0).default(3600),
  /**
   * How long a tool call under an `always` approval policy waits for a person before it expires
   * (docs/approvals.md). At most 3 days: a run waits at most once per model turn (10 turns), and
   * its Temporal timeout allows 30 days of waiting (RUN_APPROVAL_WAIT_LIMIT_MS).
   */
  APPROVAL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(259_200).default(86_400),
  /**
   * A run's time of work: checked before each model call, waits for approvals not counted
   * (docs/automations.md). At most an hour, which the run's Temporal timeout allows for.
   */
  RUN_WORK_SECONDS: z.coerce.number().int().min(1).max(3600).default(3600),
  /** Continue-as-new the entity workflow past this many history events (the SDK may suggest it earlier). */
  // An evicted automation replays its history since the last continue-as-new at its next fire
  // (~0.75 ms of CPU per event), and a cached one keeps ~4 KB per fire it waited for until then
  // (the workflow SDK's cancelled timer scopes): 200 events (~16 fires) bound those at ~0.15 s and
  // ~64 KB per automation.
  AUTOMATION_CONTINUE_AS_NEW_EVENTS: z.coerce.number().int().min(10).default(200),
  // Worker capacity (docs/operations.md); unset means our defaults (src/worker/worker.ts), else the SDK's.
  /** Workflows the main queue's worker keeps in memory between tasks (memory vs. replays); default 3,000. */
  WORKER_MAX_CACHED_WORKFLOWS: optionalNumber(z.coerce.number().int().min(0)),
  /** Run workflows the runs queue's worker keeps in memory between tasks; default 250. */
  WORKER_MAX_CACHED_RUNS: optionalNumber(z.coerce.number().int().min(0)),
  /**
   * gzip on the worker's connection to Temporal (`gzip`), or none (default): the payloads are
   * encrypted, so it saves few bytes, and every compressed request costs ~370 KB of allocator churn.
   */
  WORKER_GRPC_COMPRESSION: z.enum(['none', 'gzip']).default('none'),
  /** Activities (model calls, deliveries, tool calls) one worker runs at once; SDK default 100. */
  WORKER_MAX_CONCURRENT_ACTIVITIES: optionalNumber(z.coerce.number().int().min(1)),
  /** Workflow tasks one worker runs at once; SDK default 40. */
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: optionalNumber(z.coerce.number().int().min(2)),
  /** Workflow tasks the runs queue's worker runs at once; default WORKER_MAX_CONCURRENT_WORKFLOW_TASKS. */
  WORKER_RUNS_MAX_CONCURRENT_WORKFLOW_TASKS: optionalNumber(z.coerce.number().int().min(2)),
  /**
   * Workflow tasks of runs a worker takes at once while it handles main-queue tasks (automations'
   * fires): the runs yield the CPU to the fires, and take all their slots back when the main queue
   * is quiet (src/worker/fires-first.ts).
   */
  WORKER_RUN_TASKS_DURING_FIRES: z.coerce.number().int().min(1).default(2),
  /**
   * How long a workflow task waits on this worker's own (sticky) queue before any worker may take
   * it (SDK default 10 s). Past it the task moves to the shared queue and waits again, so under a
   * burst (1,000 fires in one second) a short value doubles the wait of the last tasks; a longer
   * one delays the pickup of tasks already queued for a worker that died by at most this long.
   */
  WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Worker processes the worker entry point starts (docs/design.md, "Contract"); each polls both task queues. */
  WORKER_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** Slack's Web API base. Slack channels post with their organization's own bot token, stored with the channel (src/channels/stored.ts). */
  SLACK_API_URL: z.url().default('https://slack.com/api'),
  /** Allow webhook channel deliveries to private, loopback and link-local addresses (tests, on-premises). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag,
  /** Restart missing automation workflows when an API or worker process starts (default on). */
  AUTOMATION_RECONCILE_ON_START: booleanFlag,
  /**
   * Proxies whose X-Forwarded-For is believed: IP addresses or CIDRs, comma-separated (also
   * proxy-addr's names loopback, linklocal, uniquelocal). Unset: nobody's; a boolean is refused.
   */
  TRUST_PROXY: optionalString.pipe(
    z
      .string()
      .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
      .refine((items) => items.every(isProxyEntry), 'must be IP addresses or CIDRs, comma-separated (not a boolean)')
      .optional(),
  ),
  // Identity and access (docs/identity.md).
  SESSION_COOKIE_DOMAIN: optionalString,
  /** Secure flag of svc_session; default on, off only when PUBLIC_BASE_URL is http://localhost. */
  SESSION_COOKIE_SECURE: booleanFlag,
  /** Comma-separated origins allowed on unsafe cookie-authenticated requests; default the PUBLIC_BASE_URL origin. */
  SESSION_ALLOWED_ORIGINS: optionalString,
  /** Where the browser lands after OIDC sign-in; default the PUBLIC_BASE_URL origin. */
  SIGN_IN_REDIRECT_URL: optionalString.pipe(z.url().optional()),
  /** Portal page that accepts invitations; the emailed link is this URL with ?token=. */
  INVITATION_URL: optionalString.pipe(z.url().optional()),
  OIDC_ISSUER: optionalString.pipe(z.url().optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** Default: {PUBLIC_BASE_URL}/auth/oidc/callback. */
  OIDC_REDIRECT_URI: optionalString.pipe(z.url().optional()),
  OIDC_SCOPES: z.string().default('openid email profile'),
  RATE_LIMIT_PER_KEY_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_PER_ORG_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  /** Gateway rate limits are leased to an instance in blocks of limit / this while far from the limit; 0 = counted in Redis per request. */
  RATE_LIMIT_LEASE_DIVISOR: z.coerce.number().int().min(0).default(20),
  /** Sign-in attempts (password, invitation accept, OIDC callback) per client IP per minute. */
  RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** A JSON file of extra MCP connector catalog entries ({"connectors": [...]}); same id replaces a shipped entry. */
  TOOLS_CATALOG_EXTRA: optionalString,
  /** Deadline of a connection health test: start, initialize, tools/list and shutdown. */
  TOOLS_TEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Connection health tests running at once in one API process (each starts a connector); beyond it 429. */
  TOOLS_TEST_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  // Connector confinement (docs/tools.md, SECURITY.md).
  /** Root of each organization's connector files (`<dir>/<organizationId>/`); default `$DATA_DIR/tools`. */
  TOOLS_DATA_DIR: optionalString,
  /** Hosts, host:port or CIDRs that connections may reach although private or loopback. */
  TOOLS_ALLOWED_HOSTS: optionalString.refine((value) => {
    try {
      parseAllowList(value);
      return true;
    } catch {
      return false;
    }
  }, 'expected hosts, host:port or CIDRs, comma-separated'),
  /** Connector processes running at once in one process (worker or API); more wait in a bounded queue. */
  TOOLS_MAX_PROCESSES: z.coerce.number().int().min(1).max(1000).default(16),
  /** Allow connectors whose network target cannot be checked or pinned (fetch, puppeteer). */
  TOOLS_ENABLE_UNPINNED_EGRESS: booleanFlag,
  /** Memory limit of one connector process (V8 heap for node, address space for others). */
  TOOLS_PROCESS_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(1024),
  // The MCP gateway, /v1/mcp (docs/tools.md "Using the tools from an MCP client").
  /** Keep a tool call's arguments (after DLP masking) in its `tool.called` audit event; off by default. */
  AUDIT_TOOL_ARGUMENTS: booleanFlag,
  /** How long a /v1/mcp tools/call under an `always` approval keeps the request open (with progress) before answering that it is pending; under the MCP SDK clients' 60 s default request timeout. */
  MCP_APPROVAL_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(50),
  /** Past this many tools a caller may use, /v1/mcp also offers `search_tools`. */
  MCP_SEARCH_TOOLS_THRESHOLD: z.coerce.number().int().min(0).max(100_000).default(40),
  /** How long a pooled MCP session to a connection's server stays open unused. */
  MCP_SESSION_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Calls in flight at once on one pooled session; more wait in a bounded queue (MCP_CONNECTION_QUEUE), beyond it a busy error. */
  MCP_CONNECTION_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(64),
  MCP_CONNECTION_QUEUE: z.coerce.number().int().min(0).max(100_000).default(1000),
  // Quotas (SECURITY.md): over them 403 quota_exceeded.
  QUOTA_AUTOMATIONS_PER_ORG: z.coerce.number().int().min(0).default(1000),
  QUOTA_WEBHOOKS_PER_ORG: z.coerce.number().int().min(0).default(1000),
  QUOTA_CONNECTIONS_PER_ORG: z.coerce.number().int().min(0).default(100),
  QUOTA_API_KEYS_PER_USER: z.coerce.number().int().min(0).default(50),
  QUOTA_ASSISTANTS_PER_ORG: z.coerce.number().int().min(0).default(1000),
  /** Bytes of stored Responses API responses (as stored, encrypted) per organization; over it `store: true` is 403. */
  QUOTA_STORED_RESPONSE_BYTES: z.coerce.number().int().min(0).default(1_073_741_824),
  /** API processes serving the port (node:cluster); default one per core in production, 1 otherwise. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** Traces on when set (OTLP over HTTP, `<endpoint>/v1/traces`); the other OTEL_* names are read by the SDK. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url().optional()),
  /** The traces URL itself, instead of OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString.pipe(z.url().optional()),
  /** `true` keeps traces off whatever the endpoint (the OpenTelemetry SDK's own switch, read here too). */
  OTEL_SDK_DISABLED: optionalString.transform((value) => value?.toLowerCase() === 'true'),
  // Set by the worker supervisor and the API's cluster primary on the processes they fork; not for operators.
  /** Which forked worker process this is (0..WORKER_PROCESSES-1); unset in the supervisor and a single worker. */
  WORKER_PROCESS_INDEX: optionalNumber(z.coerce.number().int().min(0)),
  /** Which forked API process this is; unset in the primary and a single-process API. */
  AIW_API_PROCESS_INDEX: optionalNumber(z.coerce.number().int().min(0)),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** Absolute TOOLS_DATA_DIR. */
  toolsDataDir: string;
  /** The `{base_url}` of the spec: ends with /v1. */
  publicBaseUrl: string;
  marketplaceUrl: string;
  /** The Web UI origin allowed on the codec endpoints (TEMPORAL_UI_ORIGIN or the local dev server's). */
  temporalUiOrigin: string;
  /**
   * The environment this config was parsed from, for what passes variables on rather than
   * configures the service: `${VAR}` in the gateway config file (any name the file uses), the
   * few variables a connector process inherits. Read it here, never from process.env.
   */
  environment: Readonly<NodeJS.ProcessEnv>;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Invalid environment variable ${variable}: ${detail}`);
    this.name = 'ConfigError';
  }
}

/**
 * The environment of a built entry point (the API and worker processes): an unset NODE_ENV means
 * production there, so nothing development-only (a generated SECRET_KEY) happens by omission.
 * The dev runner and the tests say what they are.
 */
export function entryPointEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.NODE_ENV ? env : { ...env, NODE_ENV: 'production' };
}

/** Parses an environment (process.env by default). Throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, issue?.message ?? 'invalid value');
  }
  const values = parsed.data;
  const localBase = `http://localhost:${values.PORT}`;
  return {
    ...values,
    dataDir: path.resolve(values.DATA_DIR),
    toolsDataDir: path.resolve(values.TOOLS_DATA_DIR ?? path.join(values.DATA_DIR, 'tools')),
    publicBaseUrl: stripTrailingSlash(values.PUBLIC_BASE_URL ?? `${localBase}/v1`),
    marketplaceUrl: stripTrailingSlash(values.MARKETPLACE_URL ?? `${localBase}/marketplace`),
    temporalUiOrigin: new URL(values.TEMPORAL_UI_ORIGIN ?? `http://localhost:${values.TEMPORAL_UI_PORT}`).origin,
    environment: env,
  };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR or one of proxy-addr's names: what Express's `trust proxy` list accepts. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The task queue of the run workflows: runs never wait behind fires and updates, nor delay them. */
export function runsTaskQueue(config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_RUNS_TASK_QUEUE'>): string {
  return config.TEMPORAL_RUNS_TASK_QUEUE ?? `${config.TEMPORAL_TASK_QUEUE}-runs`;
}
