// The benchmark's servers, one per child process so none competes with the load generator's
// event loop: `upstream` (the fake upstream, fixed small answer, 0 ms think time), `bare` (an
// undici pass-through proxy, nothing else: the floor for any Node gateway) and `gateway` (this
// service's API with auth, Redis rate limiting, DLP and usage accounting on). Each prints
// `READY <url> [apiKey]` once listening.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startFakeUpstream, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';

const role = process.argv[2];
const upstreamUrl = process.env.BENCH_UPSTREAM_URL ?? '';
const slowUpstreamUrl = process.env.BENCH_SLOW_UPSTREAM_URL;

async function upstream(): Promise<void> {
  const fake = await startFakeUpstream();
  fake.setDefault({ content: 'The quick brown fox jumps over the lazy dog.', usage: { input: 12, output: 10 } });
  // The benchmark never reads the request log: keep it from growing for the whole run.
  setInterval(() => fake.requests.splice(0), 1000).unref();
  console.log(`READY ${fake.url}`);
}

/** Streams slowly (about 2.4 s per answer): keeps 1,000 streams open at once through the gateway. */
async function upstreamSlow(): Promise<void> {
  const fake = await startFakeUpstream();
  fake.setDefault({ content: 'one two three four five six seven eight nine ten', usage: { input: 12, output: 10 }, chunkDelayMs: 200 });
  setInterval(() => fake.requests.splice(0), 1000).unref();
  console.log(`READY ${fake.url}`);
}

async function bare(): Promise<void> {
  const pool = new Pool(upstreamUrl, { connections: 512, keepAliveTimeout: 30_000 });
  const server = http.createServer(async (req, res) => {
    try {
      const upstreamResponse = await pool.request({
        method: 'POST',
        path: req.url ?? '/',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: req,
      });
      res.writeHead(upstreamResponse.statusCode, { 'content-type': String(upstreamResponse.headers['content-type'] ?? 'application/json') });
      for await (const chunk of upstreamResponse.body) res.write(chunk);
      res.end();
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

async function gateway(): Promise<void> {
  // Imported here, not at the top: the other roles' peak RSS must not include the whole service.
  const { startApi } = await import('../../src/api/server.js');
  const { loadConfig } = await import('../../src/config.js');
  const { freePort, startTemporalDevServer } = await import('../../src/dev/temporal-server.js');
  const { createLogger } = await import('../../src/logger.js');
  const { openRuntime } = await import('../../src/runtime.js');
  const { fakeGatewayConfig, writeGatewayConfig } = await import('../../test/fixtures/fake-upstream.js');
  const { createTestOrganization } = await import('../../test/helpers/orgs.js');
  const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
  const settings = fakeGatewayConfig({ primary: { baseUrl: `${upstreamUrl}/v1` } as FakeUpstream, timeoutMs: 30_000 });
  if (slowUpstreamUrl) {
    // Model `fake-slow`: the same prices, served by the slow upstream (the 1,000-stream scenario).
    (settings.providers as object[]).push({ id: 'slow', type: 'openai', baseUrl: `${slowUpstreamUrl}/v1`, apiKey: 'sk-fake-slow', timeoutMs: 30_000 });
    const [fakeModel] = settings.models as Record<string, unknown>[];
    (settings.models as object[]).push({ ...fakeModel, id: 'fake-slow', targets: [{ provider: 'slow', upstreamModel: 'gpt-fake-slow' }] });
  }
  const gatewayConfig = writeGatewayConfig(settings);
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    GATEWAY_CONFIG: gatewayConfig,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? temporal!.address,
    TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
    REDIS_KEY_PREFIX: `bench:${randomUUID()}:`,
    DATA_DIR: '/tmp/ai-workspace-bench',
    SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
    // Counted in Redis on every request like in production, set high enough never to refuse the load.
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '100000000',
  });
  const logger = createLogger({ level: 'warn' });
  const runtime = await openRuntime(config, logger, {
    database: config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { pgliteDir: 'memory://' },
  });
  const org = await createTestOrganization(runtime.orm);
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  console.log(`READY ${api.url} ${org.member.key}`);
  const stop = async () => {
    await api.stop(1000);
    await runtime.close();
    await temporal?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
}

const roles: Record<string, () => Promise<void>> = { upstream, 'upstream-slow': upstreamSlow, bare, gateway };
const start = roles[role ?? ''];
if (!start) {
  console.error(`unknown role ${role}; one of ${Object.keys(roles).join(', ')}`);
  process.exit(2);
}
await start();
