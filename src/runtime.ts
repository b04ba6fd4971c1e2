// Opens what every process shares: database (migrated), Redis or its fallback, the Temporal
// client, and the feature cores built on them (gateway, budget, mailer, secrets). The API, the
// worker, the dev runner and the tests all start from here.
import path from 'node:path';
import type { AppDeps } from './runtime-deps.js';
import { createBudgetLedger, leaseSettingsOf } from './billing/budget-ledger.js';
import { CredentialCache } from './identity/credential-cache.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { createSecretBox, resolveSecretKey } from './crypto/secrets.js';
import { openDatabase, type DatabaseTarget } from './db/orm.js';
import { entities } from './orm-entities.js';
import { createGateway } from './gateway/index.js';
import { ResponsesStore } from './gateway/responses.service.js';
import type { Logger } from './logger.js';
import { createMailer } from './mail/mailer.js';
import { ConnectorSessionPool } from './mcp-gateway/session-pool.js';
import { ToolCallLog } from './audit/tool-calls.js';
import { openSharedState } from './redis.js';
import { createPayloadCodec, previousSecretKeys } from './payloads/data-converters.js';
import { clientTracingInterceptors } from './telemetry/temporal-tracing.js';
import { startTracing } from './telemetry/tracing.js';
import { connectTemporal } from './temporal.js';
import { temporalConnectionOptions } from './temporal-connection.js';

export interface Runtime extends AppDeps {
  close(): Promise<void>;
}

export { temporalAddress } from './temporal-connection.js';

export function databaseTarget(config: Config): DatabaseTarget {
  return config.DATABASE_URL
    ? { databaseUrl: config.DATABASE_URL }
    : { pgliteDir: path.join(config.dataDir, 'pglite') };
}

export async function openRuntime(
  config: Config,
  logger: Logger,
  overrides: { database?: DatabaseTarget; clock?: Clock } = {},
): Promise<Runtime> {
  const clock = overrides.clock ?? systemClock;
  // What is open so far, closed in reverse when a later step fails (a bad gateway config, Redis
  // or Temporal unreachable): an open pool or client would keep the failed process alive.
  const opened: (() => Promise<void> | void)[] = [];
  // First: a production start without SECRET_KEY stops here, before it touches anything.
  const secretKey = resolveSecretKey(config, logger);
  // Before anything that makes spans or Temporal clients: the interceptors need the provider.
  await startTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, tracesEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, serviceName: 'ai-workspace', sdkDisabled: config.OTEL_SDK_DISABLED });
  try {
    const orm = await openDatabase(overrides.database ?? databaseTarget(config), { entities, logger });
    opened.push(() => orm.close());
    const shared = await openSharedState({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX }, logger);
    opened.push(() => shared.close());
    const temporal = await connectTemporal({
      connection: temporalConnectionOptions(config),
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      codec: createPayloadCodec(secretKey, config),
      interceptors: await clientTracingInterceptors(),
    });
    opened.push(() => temporal.close());
    const secrets = createSecretBox(secretKey, previousSecretKeys(config));
    const mailer = createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger,
    });
    opened.push(() => mailer.close());
    const budget = createBudgetLedger({
      orm,
      shared,
      clock,
      logger,
      reservationTtlMs: config.BUDGET_RESERVATION_TTL_SECONDS * 1000,
      leases: leaseSettingsOf(config),
    });
    const gateway = await createGateway({ config, logger, orm, shared, budget, clock });
    const credentials = new CredentialCache(shared);
    const responses = new ResponsesStore({ orm, secrets, clock, retentionDays: config.RESPONSES_RETENTION_DAYS, limits: config });
    const mcpSessions = new ConnectorSessionPool({ config, orm, secrets, logger });
    const toolCalls = new ToolCallLog({ orm, clock, config, logger });
    return {
      config,
      logger,
      orm,
      shared,
      temporal,
      clock,
      gateway,
      responses,
      budget,
      credentials,
      mailer,
      secrets,
      mcpSessions,
      toolCalls,
      async close() {
        await mcpSessions.close();
        await toolCalls.close();
        await gateway.close();
        // Before Redis closes: unused lease budget and rate tokens go back, settled spend is synced.
        await budget.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the budget leases failed'));
        mailer.close();
        await temporal.close();
        await shared.close();
        await orm.close();
      },
    };
  } catch (error) {
    for (const close of opened.reverse()) {
      await Promise.resolve()
        .then(close)
        .catch((closeError: unknown) => logger.warn({ err: closeError }, 'closing after a failed start failed'));
    }
    throw error;
  }
}
