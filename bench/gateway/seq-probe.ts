// Sequential A/B probe (session tool, not a benchmark): one fake upstream and one bare proxy in
// their own processes, then every build in GATEWAY_ENTRIES (comma-separated, default
// dist/api/main.js) started on its own scratch database; ROUNDS rounds, each running direct, bare
// and every build in turn for SEQ_SECONDS, sequentially (STREAM=1: streams). Prints per round and
// at the end (medians over rounds) the overhead over direct and the CPU per request of each proxy.
// C64=1 also runs each build at 64 connections per round for its CPU per request.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { API_NODE_FLAGS, withNodeFlags } from '../../src/node-flags.js';
import { fakeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { runLoad, type Target } from './load.js';
import { cpuMs, helper, startGateway } from './probe-kit.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const entries = (process.env.GATEWAY_ENTRIES ?? 'dist/api/main.js').split(',').map((entry) => path.resolve(root, entry));
const seconds = Number(process.env.SEQ_SECONDS ?? '3');
const rounds = Number(process.env.ROUNDS ?? '3');
const stream = process.env.STREAM === '1';
const c64 = process.env.C64 === '1';

const upstream = await helper('upstream');
const bareProxy = await helper('bare', { BENCH_UPSTREAM_URL: upstream.url });
const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
const body = (model: string) => (s: boolean) => JSON.stringify({ model, messages: [{ role: 'user', content: 'Summarize the meeting notes in two sentences.' }], stream: s });
const direct: Target = { name: 'direct', url: upstream.url, path: '/v1/chat/completions', headers: {}, body: body('gpt-fake-mini') };
const bare: Target = { ...direct, name: 'bare', url: bareProxy.url };
const gateways: { name: string; child: ChildProcess; target: Target; stop: () => Promise<void> }[] = [];
for (const entry of entries) {
  const settings = fakeGatewayConfig({ primary: { baseUrl: `${upstream.url}/v1` } as FakeUpstream, timeoutMs: 30_000 });
  // The production command line's flags (Dockerfile), as in run.ts, unless GATEWAY_NODE_ARGS sets them.
  const nodeArgs = withNodeFlags(API_NODE_FLAGS, (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean), '');
  const gateway = await startGateway({ entry, nodeArgs, settings, temporalAddress: process.env.TEMPORAL_ADDRESS ?? temporal!.address });
  const name = path.relative(root, entry);
  const target: Target = { name, url: gateway.url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${gateway.apiKey}` }, body: body('fake-model') };
  gateways.push({ name, child: gateway.child, target, stop: () => gateway.stop() });
  await runLoad(target, { connections: 16, durationMs: 2000, stream });
}
await runLoad(direct, { connections: 16, durationMs: 500, stream });
await runLoad(bare, { connections: 16, durationMs: 500, stream });

const results = new Map<string, { overhead: number[]; ttfb: number[]; cpu: number[]; cpu64: number[] }>();
const note = (name: string, overhead: number, ttfb: number, cpu: number, cpu64 = NaN) => {
  const r = results.get(name) ?? { overhead: [], ttfb: [], cpu: [], cpu64: [] };
  r.overhead.push(overhead);
  r.ttfb.push(ttfb);
  r.cpu.push(cpu);
  r.cpu64.push(cpu64);
  results.set(name, r);
};
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? gateways : [...gateways].reverse();
  const d = await runLoad(direct, { connections: 1, durationMs: seconds * 1000, stream });
  const line: string[] = [`round ${round}: direct ${d.meanMs.toFixed(3)} ms`];
  for (const proxy of [{ name: 'bare', child: bareProxy.child, target: bare }, ...order]) {
    const before = cpuMs(proxy.child.pid!);
    const r = await runLoad(proxy.target, { connections: 1, durationMs: seconds * 1000, stream });
    const cpu = ((cpuMs(proxy.child.pid!) - before) / r.requests) * 1000;
    let cpu64 = NaN;
    if (c64) {
      const before64 = cpuMs(proxy.child.pid!);
      const r64 = await runLoad(proxy.target, { connections: 64, durationMs: seconds * 1000, stream });
      cpu64 = ((cpuMs(proxy.child.pid!) - before64) / r64.requests) * 1000;
    }
    note(proxy.name, r.meanMs - d.meanMs, r.ttfbMs - d.ttfbMs, cpu, cpu64);
    line.push(`${proxy.name} +${(r.meanMs - d.meanMs).toFixed(3)} ms (ttfb +${(r.ttfbMs - d.ttfbMs).toFixed(3)}), ${cpu.toFixed(0)} µs CPU${c64 ? `, @64 ${cpu64.toFixed(0)} µs` : ''}`);
  }
  console.log(line.join('; '));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [name, r] of results) {
  console.log(`${name}: median over ${r.overhead.length} rounds: seq overhead +${median(r.overhead).toFixed(3)} ms, ttfb +${median(r.ttfb).toFixed(3)} ms, CPU ${median(r.cpu).toFixed(0)} µs per sequential request${c64 ? `, ${median(r.cpu64).toFixed(0)} µs @64` : ''}`);
}
for (const gateway of gateways) await gateway.stop();
upstream.child.kill();
bareProxy.child.kill();
await temporal?.stop();
process.exit(0);
