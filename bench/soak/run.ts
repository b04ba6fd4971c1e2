// bench:soak: the production build for SOAK_MINUTES (default 30) under steady mixed traffic, to
// show whether memory stays flat (docs/design.md, Targets: RSS growth <= 1 MiB/min per process,
// 0 errors). The API (its default processes: one per core) and one worker from `tsc` output, on a
// PostgreSQL server, a Redis server and a Temporal dev server of their own, started as the fault
// benches start them (test/faults, test/helpers/production.ts). The load:
//   - SOAK_RPS (300) gateway requests a second, open loop (traffic.ts): chat completions,
//     Responses and Anthropic Messages, whole and streamed, embeddings, stored responses written and
//     read back, through a fake upstream in a child process of its own (bench/gateway/servers.ts);
//   - SOAK_WEBHOOK_RPS (5) webhook events a second to an assistant that answers and delivers;
//   - SOAK_AUTOMATIONS (200) automations firing every minute (SOAK_SCHEDULE, a cron, to diagnose faster), each calling an MCP tool and
//     delivering, one in 10 under an `always` approval that the bench approves by API (workload.ts).
// Reports (printed as Markdown tables): each process's RSS and heap every minute and their slope
// after SOAK_WARMUP_MINUTES (default 5, at most half the run), event-loop delay p99, errors by kind
// (client-side answers, failed runs and executions, error log lines of the processes), the
// achieved rate and the machine's load, and PostgreSQL table growth per hour (rows and bytes).
// The verdict on memory is the slope of each process's RSS after a full GC: the memory probe
// (bench/automations/memory-probe.mjs, loaded into every process unless SOAK_MEMORY_PROBE=0) reports
// at the end of the warm-up, every SOAK_GC_EVERY_MINUTES (1) after and at the end, each report after
// a full GC of every isolate (RSS, anonymous memory, the main thread's and the workflow threads'
// heaps). Sampled without a GC, an API fork's RSS swings by tens of MiB from minute to minute with
// its young generation and its old generation's next collection, which a 25-minute slope cannot
// average out (both are bounded: --max-semi-space-size, the heap limit); the raw slope is printed
// too. The full GCs cost each process a pause of some tens of ms a minute.
// SOAK_HEAP_SNAPSHOTS=1 also takes heap snapshots of every isolate at the first and the last report
// and prints what grew between them, per minute (bench/automations/heap-diff.ts; seconds of pause).
//
//   npm run bench:soak                       (SOAK_MINUTES=30 SOAK_RPS=300)
//   SOAK_MINUTES=6 SOAK_RPS=100 npm run bench:soak
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { writeWorkflowBundle } from '../../src/worker/bundle.js';
import { fakeGatewayConfig, writeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { startMcpHttpFixture } from '../../test/fixtures/mcp-server.js';
import { startPostgresServer } from '../../test/fixtures/postgres-server.js';
import { startRedisServer } from '../../test/fixtures/redis-server.js';
import { startWebhookReceiver } from '../../test/fixtures/webhook-receiver.js';
import { createTestOrganization } from '../../test/helpers/orgs.js';
import { buildProduction, productionProcess } from '../../test/helpers/production.js';
import { writeFixtureCatalog } from '../../test/tools/fixture-catalog.js';
import { printTable } from '../markdown-table.js';
import { startAgentUpstream } from './agent-upstream.js';
import { printProbeReports } from './probe-reports.js';
import { GROWTH_TABLES, ProcessSampler, processesRunning, slopePerMinute, tableSizes, type ProcessSeries, type TableSize } from './sampler.js';
import { startTraffic } from './traffic.js';
import { createWorkload, startWorkload } from './workload.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RPS = Number(process.env.SOAK_RPS ?? 300);
const WEBHOOK_RPS = Number(process.env.SOAK_WEBHOOK_RPS ?? 5);
const AUTOMATIONS = Number(process.env.SOAK_AUTOMATIONS ?? 200);
/** The automations' cron: every minute; a seconds-level one (e.g. every 10 s) compresses hours of fires into minutes for a diagnosis (not the target's run). */
const SCHEDULE = process.env.SOAK_SCHEDULE ?? '* * * * *';
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? Math.min(5, MINUTES / 2));
const HEAP_SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS === '1';
/** Memory reports of every process (bench/automations/memory-probe.mjs): heaps of every thread after a full GC, anonymous memory. */
const PROBE = HEAP_SNAPSHOTS || process.env.SOAK_MEMORY_PROBE !== '0';
const GC_EVERY_MS = Number(process.env.SOAK_GC_EVERY_MINUTES ?? 1) * 60_000;
/** The target (docs/design.md, Targets): RSS growth per process. */
const TARGET_MIB_PER_MIN = 1;
const SAMPLE_MS = 15_000;
const MCP_TOKEN = `soak-${randomUUID()}`;

const log = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fake upstream of the gateway calls, in a child process so its event loop is not the load generator's. */
async function startUpstreamChild(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/gateway/servers.ts'), 'upstream'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /READY (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code})`)));
  });
  return { url, child };
}

function gatewayConfig(upstreamUrl: string, agentBaseUrl: string): string {
  const config = fakeGatewayConfig({ primary: { baseUrl: `${upstreamUrl}/v1` } as FakeUpstream, timeoutMs: 30_000 });
  (config.providers as Record<string, unknown>[]).push({ id: 'agent', type: 'openai', baseUrl: agentBaseUrl, apiKey: 'sk-fake-agent', timeoutMs: 30_000 });
  (config.models as Record<string, unknown>[]).push({ id: 'agent-model', targets: [{ provider: 'agent', upstreamModel: 'agent-1' }], inputPricePer1M: 1, outputPricePer1M: 2, maxOutputTokens: 1000 });
  return writeGatewayConfig(config);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
const heapDir = path.join(dir, 'heap');
fs.mkdirSync(heapDir);
log(`starting (${MINUTES} min at ${RPS} req/s, ${WEBHOOK_RPS} events/s, ${AUTOMATIONS} automations on '${SCHEDULE}'; work dir ${dir})`);
// Everything started is stopped at the end, also when a step fails.
const cleanups: (() => unknown)[] = [];
const stopWith = <T>(value: Promise<T>, stop: (started: T) => unknown): Promise<T> => value.then((started) => {
  cleanups.push(() => stop(started));
  return started;
});
const [temporal, postgres, redis, bundlePath, buildDir, upstream, agent, mcp, receiver] = await Promise.all([
  stopWith(startTemporalDevServer({ port: await freePort(), dbFile: path.join(dir, 'temporal.sqlite') }), (server) => server.stop()),
  stopWith(startPostgresServer(), (server) => server.remove()),
  stopWith(startRedisServer(), (server) => server.stop()),
  writeWorkflowBundle(path.join(dir, 'workflow-bundle.js')),
  stopWith(buildProduction(`soak-${process.pid}`), (built) => fs.rmSync(built, { recursive: true, force: true })),
  stopWith(startUpstreamChild(), (started) => started.child.kill()),
  stopWith(startAgentUpstream(), (server) => server.close()),
  stopWith(startMcpHttpFixture({ token: MCP_TOKEN }), (server) => server.stop()),
  stopWith(startWebhookReceiver(), (server) => server.stop()),
]).catch(async (error: unknown) => {
  await cleanUp();
  throw error;
});

async function cleanUp(): Promise<void> {
  for (const stop of cleanups.reverse()) await Promise.resolve().then(stop).catch(() => undefined);
}
try {
  receiver.secret = 'whsec_soak_receiver_0123456789abcdef';
  const orm = await openDatabase({ databaseUrl: postgres.url }, { entities });
  const org = await createTestOrganization(orm).finally(() => orm.close());
  const port = await freePort();
  const workerMetricsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `soak-${randomUUID()}`,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    GATEWAY_CONFIG: gatewayConfig(upstream.url, agent.baseUrl),
    TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: mcp.url, hangUrl: mcp.url }),
    TOOLS_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RATE_LIMIT_PER_WEBHOOK: '1000000',
    WEBHOOK_RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '100000000',
    // A seconds-level SOAK_SCHEDULE needs the minimum interval lowered to match.
    AUTOMATION_MIN_INTERVAL_SECONDS: '1',
    WORKER_METRICS_PORT: String(workerMetricsPort),
    // Not a signal for snapshots: the Temporal SDK's runtime shuts its workers down on SIGUSR2.
    ...(PROBE ? { NODE_OPTIONS: `--import ${path.join(root, 'bench/automations/memory-probe.mjs')}`, MEMORY_PROBE_DIR: heapDir, MEMORY_PROBE_SNAPSHOTS: HEAP_SNAPSHOTS ? '1' : '0' } : {}),
  };
  const api = productionProcess(buildDir, 'api', env);
  // The worker says it runs at info level ("worker running"), which the start waits for.
  // As docker-compose.yml runs it: glibc's arenas bounded (productionProcess gives the worker's flags).
  const worker = productionProcess(buildDir, 'worker', { ...env, LOG_LEVEL: 'info', MALLOC_ARENA_MAX: '2' });
  cleanups.push(() => Promise.all([api.stop(), worker.stop()]));
  await Promise.all([api.start(), worker.start()]);
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const targets = { baseUrl, ownerKey: org.owner.key, receiverUrl: receiver.url, receiverSecret: receiver.secret, mcpToken: MCP_TOKEN };
  const { webhookPath } = await createWorkload(targets, { automations: AUTOMATIONS, approvalEvery: 10, schedule: SCHEDULE });
  log(`stack up: API ${baseUrl}, ${AUTOMATIONS} automations created`);

  const sampler = new ProcessSampler([
    { name: 'api', script: path.join(buildDir, 'api', 'main.js'), metricsUrl: `http://127.0.0.1:${port}/metrics`, scrapesPerSample: 8 },
    { name: 'worker', script: path.join(buildDir, 'worker', 'main.js'), metricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`, scrapesPerSample: 1 },
  ]);
  const traffic = startTraffic({ origin: `http://127.0.0.1:${port}`, apiKey: org.owner.key, rps: RPS });
  const workload = startWorkload(targets, webhookPath, { webhookRps: WEBHOOK_RPS });
  const startedAt = Date.now();
  const warmupEndsAt = startedAt + WARMUP_MINUTES * 60_000;
  const endsAt = startedAt + MINUTES * 60_000;
  const loads: number[] = [];
  let sizesAfterWarmup: { atMs: number; sizes: Map<string, TableSize> } | undefined;
  let answeredAfterWarmup = 0;
  let lastProbeAt: number | undefined;
  
  /** Asks every process's memory probe for a report (and snapshots, unless `snapshots` is false); waits until each has written it. */
  async function probeReports(snapshots = true): Promise<void> {
    const pids = [...processesRunning(path.join(buildDir, 'api', 'main.js')), ...processesRunning(path.join(buildDir, 'worker', 'main.js'))].map((p) => p.pid);
    const reportsOf = (pid: number) => (fs.existsSync(path.join(heapDir, String(pid))) ? fs.readdirSync(path.join(heapDir, String(pid))).filter((file) => /^\d+\.json$/.test(file)).length : 0);
    const before = new Map(pids.map((pid) => [pid, reportsOf(pid)]));
    for (const pid of pids) if (fs.existsSync(path.join(heapDir, String(pid)))) fs.writeFileSync(path.join(heapDir, String(pid), 'request'), snapshots ? '' : 'no-snapshot');
    for (let i = 0; i < 120 && pids.some((pid) => fs.existsSync(path.join(heapDir, String(pid))) && reportsOf(pid) <= before.get(pid)!); i += 1) await sleep(1000);
  }

  for (let next = startedAt; Date.now() < endsAt;) {
    next += SAMPLE_MS;
    await sleep(Math.max(0, next - Date.now()));
    const atMs = Date.now() - startedAt;
    await sampler.sample(atMs);
    loads.push(os.loadavg()[0]!);
    if (!sizesAfterWarmup && Date.now() >= warmupEndsAt) {
      sizesAfterWarmup = { atMs: Date.now(), sizes: await tableSizes(postgres.url) };
      answeredAfterWarmup = traffic.report.answered;
      if (PROBE) await probeReports();
      lastProbeAt = Date.now();
    } else if (PROBE && lastProbeAt !== undefined && Date.now() - lastProbeAt >= GC_EVERY_MS && endsAt - Date.now() > GC_EVERY_MS / 2) {
      await probeReports(false);
      lastProbeAt = Date.now();
    }
    if (Math.round(atMs / 1000) % 60 === 0) {
      const rss = [...sampler.series.values()].map((s) => `${s.name}#${s.pid} ${s.samples.at(-1)?.rssMiB.toFixed(0)}`).join(', ');
      const errors = [...traffic.report.errors.values(), ...workload.report.errors.values()].reduce((a, b) => a + b, 0);
      log(`${(atMs / 60_000).toFixed(0)} min: ${(traffic.report.answered / (atMs / 1000)).toFixed(0)} req/s answered, ${traffic.report.skipped} skipped, ${errors} errors, load ${os.loadavg()[0]!.toFixed(1)}; RSS MiB ${rss}`);
    }
  }
  const sizesAtEnd = { atMs: Date.now(), sizes: await tableSizes(postgres.url) };
  const answeredAtEnd = traffic.report.answered;
  if (PROBE) await probeReports();
  // Runs and executions of the load get up to 2 minutes to end, approvals still decided meanwhile;
  // fires after the load stopped are not counted.
  const stoppedAt = new Date();
  workload.stopEvents();
  await traffic.stop();
  const elapsedS = (Date.now() - startedAt) / 1000;
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  const outcomes = async () => (await db.query<{ kind: string; status: string; error: string | null; n: string }>(
    `select 'run' as "kind", "status", left(coalesce("error", ''), 80) as "error", count(*) as "n" from "automation_runs" where "started_at" <= $1 group by 1, 2, 3
     union all select 'execution', "status", left(coalesce("error", ''), 80), count(*) from "webhook_executions" where "received_at" <= $1 group by 1, 2, 3`, [stoppedAt])).rows;
  for (let i = 0; i < 120 && (await outcomes()).some((row) => row.status === 'running' || row.status === 'queued'); i += 1) await sleep(1000);
  await workload.stop();
  const finalOutcomes = await outcomes();
  await db.end();

  // ---- the report ----
  const series = [...sampler.series.values()].sort((a, b) => a.name.localeCompare(b.name) || a.pid - b.pid);
  const label = (s: ProcessSeries) => `${s.name} ${s.pid}`;
  const fromMs = WARMUP_MINUTES * 60_000;
  const fmt = (value: number | undefined, digits = 1) => (value === undefined ? '-' : value.toFixed(digits));
  console.log(`\n## Soak: ${MINUTES} min, ${RPS} req/s asked\n`);
  console.log(`Achieved: ${(answeredAtEnd / elapsedS).toFixed(0)} gateway req/s answered over the run` +
    (sizesAfterWarmup ? `, ${((answeredAtEnd - answeredAfterWarmup) / ((sizesAtEnd.atMs - sizesAfterWarmup.atMs) / 1000)).toFixed(0)} after the warm-up` : '') +
    `; ${traffic.report.skipped} requests not started (${512} in flight already); ${workload.report.eventsAcknowledged}/${workload.report.eventsSent} webhook events acknowledged; ` +
    `${workload.report.approvalsDecided} approvals decided; load average ${fmt(Math.min(...loads))}-${fmt(Math.max(...loads))} (median ${fmt([...loads].sort((a, b) => a - b)[Math.floor(loads.length / 2)])}) on ${os.cpus().length} cores.\n`);
  printTable(
    ['process', 'RSS after warm-up (MiB)', 'RSS at end (MiB)', 'RSS slope (MiB/min)', 'heap slope (MiB/min)', 'event-loop p99 median / max (ms)'],
    series.map((s) => {
      const after = s.samples.filter((sample) => sample.atMs >= fromMs);
      const loop = s.samples.flatMap((sample) => (sample.loopP99Ms === undefined ? [] : [sample.loopP99Ms])).sort((a, b) => a - b);
      return [
        label(s), fmt(after[0]?.rssMiB, 0), fmt(s.samples.at(-1)?.rssMiB, 0),
        fmt(slopePerMinute(s.samples, fromMs, (sample) => sample.rssMiB), 2), fmt(slopePerMinute(s.samples, fromMs, (sample) => sample.heapMiB), 2),
        loop.length ? `${fmt(loop[Math.floor(loop.length / 2)])} / ${fmt(loop.at(-1))}` : '-',
      ];
    }),
  );
  console.log('RSS / heap used (MiB) each minute:\n');
  const minutes = Array.from({ length: Math.floor(MINUTES) }, (_, i) => i + 1);
  printTable(['minute', ...series.map(label)], minutes.map((minute) => [String(minute), ...series.map((s) => {
    const sample = [...s.samples].reverse().find((entry) => entry.atMs <= minute * 60_000 + 1000);
    return sample ? `${sample.rssMiB.toFixed(0)} / ${fmt(sample.heapMiB, 0)}` : '-';
  })]));

  const errorRows: string[][] = [];
  for (const [kind, count] of traffic.report.errors) errorRows.push(['gateway client', kind, String(count)]);
  for (const [kind, count] of workload.report.errors) errorRows.push(['webhook/approvals client', kind, String(count)]);
  for (const row of finalOutcomes) if (row.status !== 'success') errorRows.push([`${row.kind} ${row.status}`, row.error || '-', row.n]);
  const processErrors = new Map<string, number>();
  for (const line of [...api.output, ...worker.output]) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; name?: string };
      if ((entry.level ?? 0) >= 50) processErrors.set(`${entry.name}: ${entry.msg}`, (processErrors.get(`${entry.name}: ${entry.msg}`) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  for (const [kind, count] of processErrors) errorRows.push(['process error log', kind.slice(0, 100), String(count)]);
  const succeeded = finalOutcomes.filter((row) => row.status === 'success').map((row) => `${row.n} ${row.kind}s`).join(', ');
  console.log(`Errors by kind (${succeeded} ended success; ${traffic.report.answered} gateway calls answered 2xx):\n`);
  printTable(['where', 'kind', 'count'], errorRows.length ? errorRows : [['-', 'none', '0']]);

  if (sizesAfterWarmup) {
    const hours = (sizesAtEnd.atMs - sizesAfterWarmup.atMs) / 3_600_000;
    console.log(`PostgreSQL table growth per hour (measured over the ${(hours * 60).toFixed(0)} min after the warm-up; bytes include indexes and TOAST):\n`);
    printTable(['table', 'rows at end', 'rows / hour', 'MiB / hour', 'bytes / row'], GROWTH_TABLES.map((table) => {
      const a = sizesAfterWarmup!.sizes.get(table)!;
      const b = sizesAtEnd.sizes.get(table)!;
      const rows = b.rows - a.rows;
      return [table, String(b.rows), (rows / hours).toFixed(0), ((b.bytes - a.bytes) / 1048576 / hours).toFixed(1), rows > 0 ? ((b.bytes - a.bytes) / rows).toFixed(0) : '-'];
    }));
  }

  if (PROBE) {
    const labels = new Map(series.map((s) => [s.pid, label(s)]));
    const verdicts = printProbeReports(heapDir, (pid) => labels.get(pid) ?? `pid ${pid}`);
    const over = verdicts.filter((verdict) => verdict.rssSlope > TARGET_MIB_PER_MIN);
    console.log(`Target, RSS after a full GC <= ${TARGET_MIB_PER_MIN} MiB/min per process: ${over.length ? `NOT met (${over.map((v) => `${labels.get(Number(v.pid)) ?? v.pid} ${v.rssSlope.toFixed(2)}`).join(', ')})` : `met (${verdicts.map((v) => v.rssSlope.toFixed(2)).join(', ')})`}; errors: ${errorRows.length ? 'NOT 0' : '0'}.\n`);
  }
} finally {
  await cleanUp();
  if (!HEAP_SNAPSHOTS) fs.rmSync(dir, { recursive: true, force: true });
}
