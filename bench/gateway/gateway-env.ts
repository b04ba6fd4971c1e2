// The environment of the gateway under benchmark (run.ts, profile.ts): the production build with
// every feature on, on the given database, Temporal and gateway config, a fresh key prefix and
// data directory, and rate limits counted in Redis on every request like in production, set high
// enough never to refuse the load.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function gatewayEnv(options: { port: number; gatewayConfig: string; temporalAddress: string; databaseUrl: string | undefined; apiKey: string; webConcurrency: number }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    // API processes (node:cluster); the production default would be one per core.
    WEB_CONCURRENCY: String(options.webConcurrency),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    GATEWAY_CONFIG: options.gatewayConfig,
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
    DATABASE_URL: options.databaseUrl ?? '',
    REDIS_KEY_PREFIX: `bench:${randomUUID()}:`,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ai-workspace-bench-')),
    SECRET_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_OWNER_API_KEY: options.apiKey,
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '100000000',
  };
}
