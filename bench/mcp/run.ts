// bench:mcp (targets in docs/design.md, "Targets"): the overhead of a tools/call through
// /v1/mcp to a remote MCP server (the fixture server over Streamable HTTP) over calling that server
// directly through one long-lived session, sequentially, with authentication, the rate limit (high
// limits, still counted), the owner check, DLP on arguments and results and the audit record on;
// then 500 concurrent calls through /v1/mcp (a tool that takes 20 ms), none lost: each answers with
// the result or a clear busy error. Target: <= 2 ms added per call. Needs PostgreSQL (DATABASE_URL
// or 127.0.0.1:5432) and Redis if REDIS_URL is set; starts its own Temporal dev server.
// BENCH_MCP_CALLS, BENCH_MCP_WARMUP and BENCH_MCP_CONCURRENT size it; BENCH_MCP_CPU_PROFILE=<file>
// writes a CPU profile of the second half of the /v1/mcp calls (start-up and the direct path left
// out; client, API and fixture share this process).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApi } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { createLogger } from '../../src/logger.js';
import { openRuntime } from '../../src/runtime.js';
import { startMcpHttpFixture } from '../../test/fixtures/mcp-server.js';
import { createTestOrganization } from '../../test/helpers/orgs.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { writeFixtureCatalog } from '../../test/tools/fixture-catalog.js';
import { printTable } from '../markdown-table.js';

const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TOKEN = 'bench-mcp-token';
const WARMUP = Number(process.env.BENCH_MCP_WARMUP ?? 200);
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 2000);
const CONCURRENT = Number(process.env.BENCH_MCP_CONCURRENT ?? 500);
/** A file to write a CPU profile of the sequential calls through /v1/mcp to (client, API and fixture: one process). */
const PROFILE = process.env.BENCH_MCP_CPU_PROFILE;

/** Profiles `work` when BENCH_MCP_CPU_PROFILE names a file (open it in Chrome's DevTools or summarize its self times). */
async function profiled<T>(work: () => Promise<T>): Promise<T> {
  if (!PROFILE) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(PROFILE, JSON.stringify(profile));
    session.disconnect();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function clientFor(url: string, authorization: string): Promise<Client> {
  const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: authorization } } }));
  return client;
}

/** Sequential echo calls (`name`: the echo tool as that server names it): per-call latencies in ms, sorted. */
async function sequential(client: Client, name: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const began = performance.now();
    const result = await client.callTool({ name, arguments: { text: `call ${i}` } });
    latencies.push(performance.now() - began);
    if (result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result.content)}`);
  }
  return latencies.sort((a, b) => a - b);
}

function row(label: string, latencies: number[]): string[] {
  const mean = latencies.reduce((sum, value) => sum + value, 0) / latencies.length;
  return [label, mean.toFixed(3), percentile(latencies, 50).toFixed(3), percentile(latencies, 99).toFixed(3)];
}

async function main(): Promise<void> {
  const fixture = await startMcpHttpFixture({ token: TOKEN, richTools: true });
  const temporal = await startTemporalDevServer({ port: await freePort() });
  const database = await createScratchDatabase(BASE_DATABASE_URL, 'bench_mcp');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `bench-mcp-${randomBytes(4).toString('hex')}`,
    REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '10000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '10000000',
    TOOLS_CATALOG_EXTRA: writeFixtureCatalog({ okUrl: fixture.url, hangUrl: fixture.url }),
    SECRET_KEY: randomBytes(32).toString('base64'),
  });
  const runtime = await openRuntime(config, createLogger({ level: 'warn' }));
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  try {
    const org = await createTestOrganization(runtime.orm);
    const created = await fetch(`${api.url}/v1/tools/connections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.member.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ toolId: 'fixture-http', name: 'Fixture', env: { FIXTURE_TOKEN: TOKEN } }),
    });
    if (created.status !== 201) throw new Error(`connection: ${created.status} ${await created.text()}`);

    const direct = await clientFor(fixture.url, `Bearer ${TOKEN}`);
    const gateway = await clientFor(`${api.url}/v1/mcp`, `Bearer ${org.member.key}`);
    await sequential(direct, 'echo', WARMUP);
    await sequential(gateway, 'fixture-http__echo', WARMUP);
    // Interleaved halves, so drift on a shared machine falls on both sides alike.
    const directRuns: number[] = [];
    const gatewayRuns: number[] = [];
    // CPU of this process (client, fixture server and, through /v1/mcp, the API): the API's share
    // per call is the difference, a figure a loaded machine stretches far less than wall time.
    const cpu = { direct: 0, gateway: 0 };
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / 1000;
    };
    for (let half = 0; half < 2; half += 1) {
      let since = process.cpuUsage();
      directRuns.push(...(await sequential(direct, 'echo', CALLS / 2)));
      cpu.direct += cpuMs(since);
      since = process.cpuUsage();
      const calls = () => sequential(gateway, 'fixture-http__echo', CALLS / 2);
      // The second half is profiled when asked: by then every path has run hundreds of times.
      gatewayRuns.push(...(await (half === 1 ? profiled(calls) : calls())));
      cpu.gateway += cpuMs(since);
    }
    directRuns.sort((a, b) => a - b);
    gatewayRuns.sort((a, b) => a - b);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    console.log(`\n### tools/call, sequential, ${CALLS} calls after ${WARMUP} warm-up (ms)\n`);
    printTable(['path', 'mean', 'p50', 'p99'], [row('direct (one long-lived session)', directRuns), row('through /v1/mcp', gatewayRuns)]);
    const overhead = mean(gatewayRuns) - mean(directRuns);
    console.log(`overhead: ${overhead.toFixed(3)} ms mean, ${(percentile(gatewayRuns, 50) - percentile(directRuns, 50)).toFixed(3)} ms p50 (target <= 2 ms): ${overhead <= 2 ? 'met' : 'NOT met'}`);
    console.log(`process CPU per call: direct ${(cpu.direct / CALLS).toFixed(3)} ms, through /v1/mcp ${(cpu.gateway / CALLS).toFixed(3)} ms: the API's share ${((cpu.gateway - cpu.direct) / CALLS).toFixed(3)} ms (PostgreSQL's and Redis's own CPU not included)\n`);

    // 500 calls at once on one client: each must come back, as its result or a busy error.
    const began = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: CONCURRENT }, (_, i) => gateway.callTool({ name: 'fixture-http__slow', arguments: { ms: 20 } }, undefined, { timeout: 120_000 }).then((result) => ({ i, result }))),
    );
    const seconds = (performance.now() - began) / 1000;
    const ok = outcomes.filter((o) => o.status === 'fulfilled' && !o.value.result.isError).length;
    const busy = outcomes.filter((o) => o.status === 'fulfilled' && o.value.result.isError && JSON.stringify(o.value.result.content).includes('busy')).length;
    const otherErrors = outcomes.filter((o) => o.status === 'fulfilled' && o.value.result.isError && !JSON.stringify(o.value.result.content).includes('busy')).length;
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    console.log(`### ${CONCURRENT} concurrent tools/call through /v1/mcp (a 20 ms tool)\n`);
    printTable(['answered', 'ok', 'busy (retry hint)', 'other tool errors', 'lost (no answer)', 'seconds'], [[String(ok + busy + otherErrors), String(ok), String(busy), String(otherErrors), String(rejected.length), seconds.toFixed(2)]]);
    for (const failure of rejected.slice(0, 3)) console.log('lost:', (failure as PromiseRejectedResult).reason);
    await direct.close();
    await gateway.close();
  } finally {
    await api.stop(2000);
    await runtime.close();
    await database.drop().catch(() => {});
    await temporal.stop();
    await fixture.stop();
  }
}

await main();
