// Benchmark: webhook acknowledgment (docs/design.md "Targets": p99 <= 50 ms on the local dev server,
// every acknowledged execution present in Temporal). Measures acks per second and ack latency
// of POST /v1/webhooks/{id} through the real API (rate limit, lookup, durable workflow start,
// execution record), against the baseline measured in the same run: the raw Temporal client's
// `workflow.start` of the same workflow with the same input. No worker runs, so both sides
// measure the start path alone. Then every acknowledged execution is looked up in Temporal.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//     npx tsx bench/webhooks/ack-latency.bench.ts        (REQUESTS=400, CONCURRENCY=16)
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { startApi } from '../../src/api/server.js';
import { createAssistant } from '../../src/assistants/assistants.service.js';
import { loadConfig } from '../../src/config.js';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { Organization, User } from '../../src/identity/entities.js';
import { createLogger } from '../../src/logger.js';
import { openRuntime } from '../../src/runtime.js';
import { randomExecutionId, executionWorkflowId } from '../../src/webhooks/webhook-ids.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/helpers/scratch-database.js';

const REQUESTS = Number(process.env.REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `count` timed calls at `concurrency`; returns sorted latencies (ms) and calls per second. */
async function measure(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < count; i = next++) {
      const t0 = performance.now();
      await task(i);
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { latencies, perSecond: count / seconds };
}

function createDatabase(): Promise<ScratchDatabase> {
  return createScratchDatabase(BASE_DATABASE_URL, 'bench_webhooks');
}

async function main(): Promise<void> {
  const temporal = await startTemporalDevServer({ port: await freePort() });
  const database = await createDatabase();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `bench-webhooks-${randomBytes(4).toString('hex')}`,
    REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    LOG_LEVEL: 'warn',
    WEBHOOK_RATE_LIMIT_PER_WEBHOOK: '1000000',
    WEBHOOK_RATE_LIMIT_PER_IP: '1000000',
    SECRET_KEY: randomBytes(32).toString('base64'),
  });
  const runtime = await openRuntime(config, createLogger({ level: 'warn' }));
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  try {
    const em = runtime.orm.em.fork();
    const organization = em.create(Organization, { name: 'Bench' });
    const user = em.create(User, { organization, email: `bench-${randomBytes(4).toString('hex')}@example.test`, role: 'owner' });
    await em.flush();
    const caller = { organizationId: organization.id, userId: user.id, email: user.email, role: 'owner' as const, via: 'api_key' as const };
    const assistant = await createAssistant(runtime, caller, {
      name: 'Bench', description: '', systemPrompt: 'x', model: 'standard', skillId: null, skillVersion: null, tools: [], toolApprovals: {}, channels: [], trigger: { type: 'webhook' },
    });
    const webhookPath = new URL(assistant.webhookUrl!).pathname;
    const body = JSON.stringify({ event: 'order.created', data: { id: 42, items: ['a', 'b'] } });
    const client = runtime.temporal.client;

    const rawStart = (i: number) => async () => {
      await client.workflow.start('webhookExecutionWorkflow', {
        workflowId: executionWorkflowId(randomExecutionId()),
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        args: [{ executionId: `raw-${i}`, organizationId: organization.id, webhookRecordId: assistant.id, target: { kind: 'assistant', assistantId: assistant.id }, body: JSON.parse(body), receivedAt: new Date().toISOString() }],
      });
    };
    const executionIds: string[] = [];
    const postWebhook = async () => {
      const res = await request(`${api.url}${webhookPath}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
      const ack = (await res.body.json()) as { executionId: string };
      if (res.statusCode !== 202) throw new Error(`unexpected status ${res.statusCode}`);
      executionIds.push(ack.executionId);
    };

    // Warm both paths (connections, JIT) before measuring.
    await measure(30, 4, (i) => rawStart(i)());
    await measure(30, 4, postWebhook);
    executionIds.length = 0;

    const rows: string[] = [];
    for (const concurrency of [1, CONCURRENCY]) {
      const count = concurrency === 1 ? Math.min(REQUESTS, 200) : REQUESTS;
      const baseline = await measure(count, concurrency, (i) => rawStart(i)());
      const webhook = await measure(count, concurrency, postWebhook);
      for (const [name, result] of [['raw client workflow.start (baseline)', baseline], ['POST /v1/webhooks/{id} (202 ack)', webhook]] as const) {
        rows.push(`| ${name} | ${concurrency} | ${count} | ${result.perSecond.toFixed(0)} | ${percentile(result.latencies, 50).toFixed(2)} | ${percentile(result.latencies, 99).toFixed(2)} |`);
      }
    }

    let present = 0;
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = next++; i < executionIds.length; i = next++) {
        await client.workflow.getHandle(executionWorkflowId(executionIds[i]!)).describe();
        present++;
      }
    }));

    console.log(`\nwebhook acknowledgment, ${new Date().toISOString()}, load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);
    console.log('| path | concurrency | requests | per second | p50 ms | p99 ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
    console.log(`\nacknowledged executions found in Temporal: ${present} / ${executionIds.length}`);
  } finally {
    await agent.close();
    await api.stop(2000);
    await runtime.close();
    await database.drop();
    await temporal.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
