// Profiling harness (not a benchmark): the production build of the gateway alone under a steady
// closed-loop load, for `--cpu-prof` and callgrind. Starts the fake upstream and the gateway like
// run.ts, warms up, then drives CONNECTIONS (default 64) for PROFILE_SECONDS (default 10) and
// prints rps. GATEWAY_NODE_ARGS adds node flags to the gateway (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p");
// GATEWAY_ENTRY runs another build (default dist/api/main.js; SKIP_BUILD=1 keeps dist as it is).
// WIRE_FORMAT picks the route: chat (default), responses (stored), responses-unstored, messages.
//   DATABASE_URL=… REDIS_URL=… npx tsx bench/gateway/profile.ts
// INSTRUCTIONS=<n> counts instead the gateway's user-space instructions per request under
// valgrind's callgrind, a figure the machine's load does not move: WARMUP_REQUESTS (default 1500)
// first, then a forced full GC, the counters zeroed, n requests at CONNECTIONS, another forced full
// GC (so the window pays for the garbage it made) and a dump.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { API_NODE_FLAGS, withNodeFlags } from '../../src/node-flags.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { gatewayEnv } from './gateway-env.js';
import { runLoad } from './load.js';
import { cpuMs, whenReady } from './probe-kit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const seconds = Number(process.env.PROFILE_SECONDS ?? '10');
const connections = Number(process.env.CONNECTIONS ?? '64');
const stream = process.env.STREAM === '1';
const instructionRequests = Number(process.env.INSTRUCTIONS ?? '0');
const entry = path.resolve(root, process.env.GATEWAY_ENTRY ?? 'dist/api/main.js');

if (process.env.SKIP_BUILD !== '1') execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
const upstream = await startFakeUpstream();
upstream.setDefault({ content: 'The quick brown fox jumps over the lazy dog.', usage: { input: 12, output: 10 } });
setInterval(() => upstream.requests.splice(0), 1000).unref();
const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
const database = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL, 'bench_gateway') : undefined;
const settings = fakeGatewayConfig({ primary: { baseUrl: `${upstream.url}/v1` } as FakeUpstream, timeoutMs: 30_000 });
const port = await freePort();
const apiKey = `svc_live_${randomBytes(24).toString('hex')}`;
// The production command line's flags (Dockerfile) unless GATEWAY_NODE_ARGS sets them.
const nodeArgs = withNodeFlags(API_NODE_FLAGS, (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean), '');
const command = process.env.GATEWAY_WRAPPER ? process.env.GATEWAY_WRAPPER.split(' ') : [];
const callgrind = instructionRequests > 0 ? callgrindSetup() : undefined;
if (callgrind) {
  process.once('exit', () => child.kill());
  command.splice(0, command.length, ...callgrind.command);
  nodeArgs.push(...callgrind.nodeArgs);
}
const child = spawn(command[0] ?? process.execPath, [...command.slice(1), ...(command.length ? [process.execPath] : []), ...nodeArgs, entry], {
  env: gatewayEnv({
    port,
    gatewayConfig: writeGatewayConfig(settings),
    temporalAddress: process.env.TEMPORAL_ADDRESS ?? temporal!.address,
    databaseUrl: database?.url,
    apiKey,
    webConcurrency: Number(process.env.WEB_CONCURRENCY ?? '1'),
  }),
  stdio: ['ignore', 'inherit', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
await whenReady(url);
const prompt = 'Summarize the meeting notes in two sentences.';
const formats = {
  chat: { path: '/v1/chat/completions', headers: {}, body: (s: boolean) => ({ model: 'fake-model', messages: [{ role: 'user', content: prompt }], stream: s }) },
  responses: { path: '/v1/responses', headers: {}, body: (s: boolean) => ({ model: 'fake-model', input: prompt, stream: s }) },
  'responses-unstored': { path: '/v1/responses', headers: {}, body: (s: boolean) => ({ model: 'fake-model', input: prompt, stream: s, store: false }) },
  messages: { path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' }, body: (s: boolean) => ({ model: 'fake-model', max_tokens: 256, messages: [{ role: 'user', content: prompt }], stream: s }) },
};
const format = formats[(process.env.WIRE_FORMAT ?? 'chat') as keyof typeof formats];
if (!format) throw new Error(`WIRE_FORMAT must be one of ${Object.keys(formats).join(', ')}`);
const target = {
  name: 'gateway',
  url,
  path: format.path,
  headers: { authorization: `Bearer ${apiKey}`, ...format.headers },
  body: (s: boolean) => JSON.stringify(format.body(s)),
};
if (callgrind) {
  const warmup = await runLoad(target, { connections, durationMs: Infinity, stream, requests: Number(process.env.WARMUP_REQUESTS ?? '1500') });
  console.log(`warm-up: ${warmup.requests} requests, ${warmup.errors} errors`);
  await callgrind.collectGarbage(child.pid!);
  callgrind.control('--zero', child.pid!);
  const window = await runLoad(target, { connections, durationMs: Infinity, stream, requests: instructionRequests });
  await callgrind.collectGarbage(child.pid!);
  callgrind.control('--dump', child.pid!);
  const instructions = callgrind.dumpedInstructions(child.pid!);
  console.log(`${entry}: ${window.requests} requests (${window.errors} errors) at ${connections} connections${stream ? ', streams' : ''}: ${(instructions / window.requests / 1e6).toFixed(3)}M instructions per request`);
  await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
  await upstream.close();
  await database?.drop();
  await temporal?.stop();
  process.exit(0);
}
await runLoad(target, { connections, durationMs: 3000, stream });
const cpuBefore = cpuMs(child.pid!);
const result = await runLoad(target, { connections, durationMs: seconds * 1000, stream });
const cpuPerRequest = ((cpuMs(child.pid!) - cpuBefore) / result.requests) * 1000;
console.log(`c${connections}${stream ? ' stream' : ''}: ${result.rps.toFixed(0)} rps, mean ${result.meanMs.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(1)} ms, errors ${result.errors}; gateway CPU ${cpuPerRequest.toFixed(0)} µs per request`);
const seq = await runLoad(target, { connections: 1, durationMs: 2000, stream });
console.log(`sequential: mean ${seq.meanMs.toFixed(3)} ms`);
await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
await upstream.close();
await database?.drop();
await temporal?.stop();

/** valgrind's callgrind around the gateway, with a full GC on SIGUSR2 that reports itself in a marker file. */
function callgrindSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-callgrind-'));
  const marker = path.join(dir, 'gc-count');
  const hook = path.join(dir, 'gc-on-signal.mjs');
  fs.writeFileSync(hook, `import fs from 'node:fs';\nlet count = 0;\nprocess.on('SIGUSR2', () => { globalThis.gc(); fs.writeFileSync(${JSON.stringify(marker)}, String(++count)); });\n`);
  let collections = 0;
  return {
    command: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${path.join(dir, 'callgrind.out.%p')}`],
    nodeArgs: ['--expose-gc', '--import', hook],
    async collectGarbage(pid: number): Promise<void> {
      collections += 1;
      process.kill(pid, 'SIGUSR2');
      while (Number(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '0') < collections) await new Promise((resolve) => setTimeout(resolve, 100));
    },
    /** valgrind names its control pipes after $HOST, which the gateway's environment sets: vgdb must look for the same name. */
    control(command: '--zero' | '--dump', pid: number): void {
      execFileSync('callgrind_control', [command, String(pid)], { stdio: 'ignore', env: { ...process.env, HOST: '127.0.0.1' } });
    },
    /** The instruction total of the last dump (callgrind names dumps <file>.<n>). */
    dumpedInstructions(pid: number): number {
      const dumps = fs.readdirSync(dir).filter((name) => name.startsWith(`callgrind.out.${pid}.`)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
      const text = fs.readFileSync(path.join(dir, dumps.at(-1)!), 'utf8');
      const totals = /^(?:summary|totals): (\d+)/m.exec(text);
      if (!totals) throw new Error(`no instruction total in ${dumps.at(-1)}`);
      return Number(totals[1]);
    },
  };
}
