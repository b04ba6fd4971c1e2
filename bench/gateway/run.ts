// bench:gateway: the same fake upstream driven four ways in one run, interleaved: directly,
// through a bare undici pass-through proxy, through this gateway (auth, Redis rate limiting, DLP,
// usage accounting on) and through @portkey-ai/gateway (custom-host header). Prints a Markdown
// table: sequential mean latency and overhead over direct, requests/s and p99 at 64 and 256
// connections, time to first byte for streams, peak RSS of each proxy; then the same gateway's
// other wire formats (/v1/responses, /v1/messages) beside its chat completions.
//
// The gateway is the production build (`tsc -p tsconfig.build.json`, then `node dist/api/main.js`,
// built here first) on PostgreSQL (a scratch database beside DATABASE_URL) or PGlite, Redis when
// REDIS_URL is set, and a Temporal dev server (or TEMPORAL_ADDRESS). GATEWAY_CPU_PROFILE_DIR=<dir>
// writes V8 CPU profiles of the gateway's processes there. GATEWAY_ENTRY runs another build of the
// gateway (default dist/api/main.js), SKIP_BUILD=1 leaves dist as it is: two builds compared in turn.
// BENCH_ONLY=prompt-cache runs only the prompt-caching row (prompt-cache.ts: a 20-turn tool loop
// through /v1/messages, with and without breakpoints, against an Anthropic-style fake's own bill).
// BENCH_ONLY=wire runs only the wire-format table, BENCH_WIRE_ROUNDS times (default 1), each
// scenario in BENCH_WIRE_SLICES turns per format (default 1).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { API_NODE_FLAGS } from '../../src/node-flags.js';
import { FAKE_EMBEDDING_MODEL, fakeGatewayConfig, writeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { gatewayEnv } from './gateway-env.js';
import { openStreams, runLoad, type LoadResult, type Target } from './load.js';
import { withSlowModel } from './probe-kit.js';
import { promptCacheRow } from './prompt-cache.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? '1');
const webConcurrency = Number(process.env.WEB_CONCURRENCY ?? '1');
const children: ChildProcess[] = [];

async function startChild(command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), 120_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, match };
}

function tsx(role: string, env: Record<string, string> = {}) {
  return startChild(process.execPath, ['--import', 'tsx', path.join(here, 'servers.ts'), role], env, /READY (\S+)(?: (\S+))?/);
}

/** The production build of the API with auth, Redis rate limits, DLP, budget and usage records on. */
async function startGateway(upstreamUrl: string, slowUpstreamUrl: string): Promise<{ child: ChildProcess; url: string; apiKey: string }> {
  const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
  const database = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL, 'bench_gateway') : undefined;
  cleanups.push(async () => {
    await database?.drop();
    await temporal?.stop();
  });
  const settings = withSlowModel(fakeGatewayConfig({ primary: { baseUrl: `${upstreamUrl}/v1` } as FakeUpstream, timeoutMs: 30_000 }), slowUpstreamUrl);
  const port = await freePort();
  const apiKey = `svc_live_${randomBytes(24).toString('hex')}`;
  // GATEWAY_CPU_PROFILE_DIR=<dir>: V8 CPU profiles of the gateway's processes, written at exit.
  const profile = process.env.GATEWAY_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.GATEWAY_CPU_PROFILE_DIR)}`] : [];
  // The production command line's flags (Dockerfile), then the profiler's.
  const child = spawn(process.execPath, [...API_NODE_FLAGS, ...profile, path.resolve(root, process.env.GATEWAY_ENTRY ?? 'dist/api/main.js')], {
    env: gatewayEnv({
      port,
      gatewayConfig: writeGatewayConfig(settings),
      temporalAddress: process.env.TEMPORAL_ADDRESS ?? temporal!.address,
      databaseUrl: database?.url,
      apiKey,
      webConcurrency,
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/readyz`);
  return { child, url, apiKey };
}

const cleanups: (() => Promise<void>)[] = [];

/** The process and its children (the API's cluster processes under WEB_CONCURRENCY). */
function processTree(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap((child) => processTree(child))];
  } catch {
    return [pid];
  }
}

/** Summed over the process tree: `VmHWM` (peak) or `VmRSS` (now), MB. */
function treeMemoryMb(child: ChildProcess, field: 'VmHWM' | 'VmRSS'): number {
  let kb = 0;
  for (const pid of processTree(child.pid)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      kb += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    } catch {
      return NaN;
    }
  }
  return kb / 1024;
}

/**
 * A load result with the proxy's CPU time (user + system, its whole process tree) per request, µs;
 * the wire table adds PostgreSQL's and the whole machine's (load generator and fake upstream included).
 */
type Measured = LoadResult & { cpuUs: number; pgUs?: number; machineUs?: number };

/**
 * CPU time the process tree used so far, ms. Per request it barely depends on what else runs
 * on the machine (unlike requests per second), so it is the figure to compare on a busy one.
 */
function treeCpuMs(child: ChildProcess): number {
  let ticks = 0;
  for (const pid of processTree(child.pid)) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return NaN;
    }
  }
  return (ticks * 1000) / 100; // USER_HZ
}

/** CPU time of every PostgreSQL process on the machine so far, ms (the stored responses' inserts run there). */
function postgresCpuMs(): number {
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return (ticks * 1000) / 100;
}

/** Busy CPU time of the whole machine so far (every core; idle and I/O wait left out), ms. */
function machineCpuMs(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const busy = fields.slice(0, 8).reduce((sum, ticks, index) => (index === 3 || index === 4 ? sum : sum + ticks!), 0);
  return (busy * 1000) / 100;
}

function peakRssMb(child: ChildProcess): number {
  return treeMemoryMb(child, 'VmHWM');
}

const messages = [{ role: 'user', content: 'Summarize the meeting notes in two sentences.' }];
const chatBody = (model: string) => (stream: boolean) => JSON.stringify({ model, messages, stream });

async function main(): Promise<void> {
  // Built first: the synchronous build blocks this process, and a child's READY line arriving
  // meanwhile would be read only after its start-up timer had fired (a loaded machine takes minutes).
  if (process.env.SKIP_BUILD !== '1') execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (process.env.BENCH_ONLY === 'prompt-cache') return promptCacheRow(root);
  const [upstream, slowUpstream] = await Promise.all([tsx('upstream'), tsx('upstream-slow')]);
  const upstreamUrl = upstream.match[1]!;
  const [bare, gateway] = await Promise.all([tsx('bare', { BENCH_UPSTREAM_URL: upstreamUrl }), startGateway(upstreamUrl, slowUpstream.match[1]!)]);
  const portkeyPort = String(20_000 + Math.floor(Math.random() * 20_000));
  const portkeyEntry = path.join(path.dirname(createRequire(import.meta.url).resolve('@portkey-ai/gateway/package.json')), 'build/start-server.js');
  const portkey = await startChild(process.execPath, [portkeyEntry, `--port=${portkeyPort}`], {}, /Ready|running|listening|8787|port/i)
    .then(async (started) => {
      await waitForHttp(`http://127.0.0.1:${portkeyPort}/`);
      return started;
    })
    .catch((error: Error) => {
      console.error(`portkey not measured: ${error.message.split('\n')[0]}`);
      return undefined;
    });

  const targets: { target: Target; child?: ChildProcess }[] = [
    { target: { name: 'direct', url: upstreamUrl, path: '/v1/chat/completions', headers: {}, body: chatBody('gpt-fake-mini') } },
    { target: { name: 'bare undici proxy', url: bare.match[1]!, path: '/v1/chat/completions', headers: {}, body: chatBody('gpt-fake-mini') }, child: bare.child },
    {
      target: { name: 'this gateway', url: gateway.url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${gateway.apiKey}` }, body: chatBody('fake-model') },
      child: gateway.child,
    },
  ];
  if (portkey) {
    targets.push({
      target: {
        name: '@portkey-ai/gateway',
        url: `http://127.0.0.1:${portkeyPort}`,
        path: '/v1/chat/completions',
        headers: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamUrl}/v1`, authorization: 'Bearer sk-fake' },
        body: chatBody('gpt-fake-mini'),
      },
      child: portkey.child,
    });
  }

  // BENCH_ONLY=wire: only the wire-format table, BENCH_WIRE_ROUNDS times (ratios from one run vary on a shared machine).
  if (process.env.BENCH_ONLY === 'wire') {
    for (let round = 0; round < Number(process.env.BENCH_WIRE_ROUNDS ?? '1'); round++) console.log(await wireFormatsReport(targets[0]!.target, targets[2]!.target, targets[2]!.child!));
    return;
  }
  const scenarios = [
    { key: 'seq', connections: 1, stream: false },
    { key: 'seqStream', connections: 1, stream: true },
    { key: 'c64', connections: 64, stream: false },
    { key: 'c256', connections: 256, stream: false },
    { key: 'c64Stream', connections: 64, stream: true },
  ] as const;
  // First, on a freshly started gateway: 1,000 slow streams at once, and its RSS while they are open.
  const streamsReport = await concurrentStreams(
    { ...targets[2]!.target, body: chatBody('fake-slow') },
    targets[2]!.child!,
    Number(process.env.BENCH_STREAMS ?? '1000'),
  );
  const results = new Map<string, Record<string, Measured>>();
  // Warm-up: JIT, pools, connections.
  for (const { target } of targets) await runLoad(target, { connections: 16, durationMs: 500, stream: false });
  // Interleaved: every target runs each scenario before the next scenario starts.
  for (const scenario of scenarios) {
    for (const { target, child } of targets) {
      const cpuBefore = child ? treeCpuMs(child) : NaN;
      const result = await runLoad(target, { connections: scenario.connections, durationMs: seconds * 1000, stream: scenario.stream });
      const cpuUs = child ? ((treeCpuMs(child) - cpuBefore) / Math.max(1, result.requests)) * 1000 : NaN;
      results.set(target.name, { ...results.get(target.name), [scenario.key]: { ...result, cpuUs } });
    }
  }
  console.log(`WEB_CONCURRENCY=${webConcurrency} (API processes; RSS columns sum the API's processes)`);
  printTable(targets.map(({ target, child }) => ({ name: target.name, rssMb: child ? peakRssMb(child) : NaN, r: results.get(target.name)! })));
  console.log(streamsReport);
  console.log(await embeddingsReport(upstreamUrl, targets[2]!.target, targets[2]!.child!));
  console.log(await wireFormatsReport(targets[0]!.target, targets[2]!.target, targets[2]!.child!));
}

/**
 * The three wire formats through the same gateway, interleaved per scenario: overhead over the
 * direct upstream, stream time to first byte, throughput at 64 connections, CPU per request, and
 * each format's throughput as a share of chat completions' (target: within 10%).
 */
async function wireFormatsReport(direct: Target, chat: Target, child: ChildProcess): Promise<string> {
  const prompt = 'Summarize the meeting notes in two sentences.';
  const formats: Target[] = [
    { ...chat, name: 'chat completions' },
    { ...chat, name: 'responses (store: false)', path: '/v1/responses', body: (stream) => JSON.stringify({ model: 'fake-model', input: prompt, stream, store: false }) },
    { ...chat, name: 'responses (store: true)', path: '/v1/responses', body: (stream) => JSON.stringify({ model: 'fake-model', input: prompt, stream }) },
    {
      ...chat,
      name: 'messages (x-api-key)',
      path: '/v1/messages',
      headers: { 'x-api-key': chat.headers.authorization!.slice('Bearer '.length), 'anthropic-version': '2023-06-01' },
      body: (stream) => JSON.stringify({ model: 'fake-model', max_tokens: 256, messages: [{ role: 'user', content: prompt }], stream }),
    },
  ];
  const scenarios = [
    { key: 'seq', connections: 1, stream: false },
    { key: 'seqStream', connections: 1, stream: true },
    { key: 'c64', connections: 64, stream: false },
  ] as const;
  const measured = new Map<string, Record<string, Measured>>();
  for (const target of [direct, ...formats]) await runLoad(target, { connections: 16, durationMs: 300, stream: false });
  // BENCH_WIRE_SLICES=n: each scenario's time cut into n slices, the formats taking turns slice by
  // slice, so a burst of load from elsewhere on a shared machine falls on all of them alike.
  const slices = Math.max(1, Number(process.env.BENCH_WIRE_SLICES ?? '1'));
  for (const scenario of scenarios) {
    for (let slice = 0; slice < slices; slice++) {
      for (const target of [direct, ...formats]) {
        // The previous run's records and settlements flush after its answers (every 200 ms): not this run's CPU.
        await new Promise((resolve) => setTimeout(resolve, slices > 1 ? 400 : 1000));
        const cpuBefore = target === direct ? NaN : treeCpuMs(child);
        const [pgBefore, machineBefore] = [postgresCpuMs(), machineCpuMs()];
        const result = await runLoad(target, { connections: scenario.connections, durationMs: (seconds * 1000) / slices, stream: scenario.stream });
        const cpuMs = target === direct ? NaN : treeCpuMs(child) - cpuBefore;
        const [pgMs, machineMs] = [postgresCpuMs() - pgBefore, machineCpuMs() - machineBefore];
        const sofar = measured.get(target.name)?.[scenario.key];
        const perRequest = (ms: number, requests: number) => (ms / Math.max(1, requests)) * 1000;
        measured.set(target.name, {
          ...measured.get(target.name),
          [scenario.key]: sofar
            ? {
              ...mergeSlices(sofar, result, cpuMs),
              pgUs: perRequest((sofar.pgUs! * sofar.requests) / 1000 + pgMs, sofar.requests + result.requests),
              machineUs: perRequest((sofar.machineUs! * sofar.requests) / 1000 + machineMs, sofar.requests + result.requests),
            }
            : { ...result, cpuUs: perRequest(cpuMs, result.requests), pgUs: perRequest(pgMs, result.requests), machineUs: perRequest(machineMs, result.requests) },
        });
      }
    }
  }
  const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const base = measured.get(direct.name)!;
  const ofChat = measured.get('chat completions')!;
  const rows = formats.map(({ name }) => {
    const r = measured.get(name)!;
    const errors = Object.values(r).reduce((sum, x) => sum + x.errors, 0);
    return (
      `| ${name} | +${f(r.seq!.meanMs - base.seq!.meanMs, 3)} | +${f(r.seqStream!.ttfbMs - base.seqStream!.ttfbMs, 3)} | ${f(r.c64!.rps, 0)} (${f(r.c64!.p99Ms, 1)}) ` +
      `| ${f((r.c64!.rps / ofChat.c64!.rps) * 100, 0)}% | ${f(r.c64!.cpuUs, 0)} | ${f(r.c64!.pgUs!, 0)} | ${f(r.c64!.machineUs!, 0)} ` +
      `(${f((r.c64!.machineUs! / ofChat.c64!.machineUs!) * 100, 0)}%) | ${errors} |`
    );
  });
  return [
    '',
    '| wire format (same gateway) | seq overhead ms | added stream TTFB ms | rps @64 (p99 ms) | rps vs chat completions | CPU µs per request @64 | PostgreSQL CPU µs @64 | machine CPU µs @64 (vs chat completions) | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** Two slices of one scenario as one: sums, means weighted by requests, the worse p99. */
function mergeSlices(a: Measured, b: LoadResult, cpuMs: number): Measured {
  const requests = a.requests + b.requests;
  const elapsedMs = (a.requests / a.rps + b.requests / b.rps) * 1000;
  const weighted = (x: number, y: number) => (x * a.requests + y * b.requests) / Math.max(1, requests);
  return {
    requests,
    errors: a.errors + b.errors,
    rps: (requests / elapsedMs) * 1000,
    meanMs: weighted(a.meanMs, b.meanMs),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    ttfbMs: Number.isNaN(a.ttfbMs) ? b.ttfbMs : weighted(a.ttfbMs, b.ttfbMs),
    cpuUs: ((a.cpuUs * a.requests) / 1000 + cpuMs) / Math.max(1, requests) * 1000,
  };
}

/** POST /v1/embeddings: directly and through the gateway, sequential and at 64 connections. */
async function embeddingsReport(upstreamUrl: string, gateway: Target, child: ChildProcess): Promise<string> {
  const body = (model: string) => () => JSON.stringify({ model, input: ['Summarize the meeting notes in two sentences.'] });
  const direct: Target = { name: 'direct', url: upstreamUrl, path: '/v1/embeddings', headers: {}, body: body('gpt-fake-mini-embed') };
  const ours: Target = { ...gateway, path: '/v1/embeddings', body: body(FAKE_EMBEDDING_MODEL) };
  const rows: string[] = [];
  const measured: Record<string, { seq: LoadResult; c64: Measured }> = {};
  for (const target of [direct, ours]) {
    await runLoad(target, { connections: 16, durationMs: 300, stream: false });
    const seq = await runLoad(target, { connections: 1, durationMs: seconds * 1000, stream: false });
    const cpuBefore = target === ours ? treeCpuMs(child) : NaN;
    const c64 = await runLoad(target, { connections: 64, durationMs: seconds * 1000, stream: false });
    measured[target.name] = { seq, c64: { ...c64, cpuUs: target === ours ? ((treeCpuMs(child) - cpuBefore) / Math.max(1, c64.requests)) * 1000 : NaN } };
  }
  const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  for (const [name, { seq, c64 }] of Object.entries(measured)) {
    rows.push(`| ${name} | ${f(seq.meanMs, 3)} (+${f(seq.meanMs - measured.direct!.seq.meanMs, 3)}) | ${f(c64.rps, 0)} (${f(c64.p99Ms, 1)}) | ${f(c64.cpuUs, 0)} | ${seq.errors + c64.errors} |`);
  }
  return ['', '| embeddings | seq mean ms (overhead) | rps @64 (p99 ms) | CPU µs per request @64 | errors |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** Opens `count` slow streams through the gateway at once; reports the gateway's RSS while they are open. */
async function concurrentStreams(target: Target, child: ChildProcess, count: number): Promise<string> {
  const before = rssMb(child);
  let maxRss = before;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssMb(child))), 50);
  const result = await openStreams(target, count);
  clearInterval(sampler);
  const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  return (
    [
      '',
      `| concurrent streams | completed | chunks per stream (min) | open at once (max) | gateway RSS before (idle, just started) MB | gateway RSS max while open MB |`,
      '| --- | --- | --- | --- | --- | --- |',
      `| ${count} | ${result.completed} | ${result.minChunks} | ${result.maxOpen} | ${f(before)} | ${f(maxRss)} |`,
      '',
      `Gateway RSS at ${count} concurrent streams: ${f(maxRss)} MB (target <= 200 MB)`,
    ].join('\n')
  );
}

function rssMb(child: ChildProcess): number {
  return treeMemoryMb(child, 'VmRSS');
}

function printTable(rows: { name: string; rssMb: number; r: Record<string, Measured> }[]): void {
  const direct = rows[0]!.r;
  const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const lines = [
    '| path | seq mean ms (overhead) | seq stream mean ms (overhead) | stream TTFB ms (added) | rps @64 (p99 ms) | CPU µs per request @64 | rps @256 (p99 ms) | stream rps @64 (p99 ms) | errors | peak RSS MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { name, rssMb, r } of rows) {
    const errors = Object.values(r).reduce((sum, x) => sum + x.errors, 0);
    lines.push(
      `| ${name} | ${f(r.seq!.meanMs, 3)} (+${f(r.seq!.meanMs - direct.seq!.meanMs, 3)}) | ${f(r.seqStream!.meanMs, 3)} (+${f(r.seqStream!.meanMs - direct.seqStream!.meanMs, 3)}) ` +
        `| ${f(r.seqStream!.ttfbMs, 3)} (+${f(r.seqStream!.ttfbMs - direct.seqStream!.ttfbMs, 3)}) | ${f(r.c64!.rps, 0)} (${f(r.c64!.p99Ms, 1)}) | ${f(r.c64!.cpuUs, 0)} | ${f(r.c256!.rps, 0)} (${f(r.c256!.p99Ms, 1)}) ` +
        `| ${f(r.c64Stream!.rps, 0)} (${f(r.c64Stream!.p99Ms, 1)}) | ${errors} | ${f(rssMb, 0)} |`,
    );
  }
  const bare = rows.find((row) => row.name === 'bare undici proxy')!.r;
  const ours = rows.find((row) => row.name === 'this gateway')!.r;
  const portkey = rows.find((row) => row.name === '@portkey-ai/gateway')?.r;
  lines.push('');
  lines.push(`Gateway throughput @64 vs bare proxy: ${f((ours.c64!.rps / bare.c64!.rps) * 100, 0)}% (target >= 50%)` +
    (portkey ? `; vs Portkey: ${f(ours.c64!.rps / portkey.c64!.rps, 1)}x (target >= 5x)` : ''));
  lines.push(`CPU per request @64: gateway ${f(ours.c64!.cpuUs, 0)} µs, bare proxy ${f(bare.c64!.cpuUs, 0)} µs` + (portkey ? `, Portkey ${f(portkey.c64!.cpuUs, 0)} µs` : ''));
  lines.push(`Gateway sequential overhead over direct: ${f(ours.seq!.meanMs - direct.seq!.meanMs, 3)} ms (target <= 0.5 ms); added stream TTFB: ${f(ours.seqStream!.ttfbMs - direct.seqStream!.ttfbMs, 3)} ms (target <= 1 ms)`);
  console.log(lines.join('\n'));
}

async function waitForHttp(url: string): Promise<void> {
  const deadline = Date.now() + 120_000; // a loaded machine starts the cluster slowly
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} not reachable`);
}

try {
  await main();
} finally {
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : (child.once('exit', resolve), child.kill('SIGTERM'))))));
  for (const cleanup of cleanups) await cleanup();
}
