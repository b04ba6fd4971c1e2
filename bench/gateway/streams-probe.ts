// Memory A/B probe (session tool, not a benchmark): for each variant in VARIANTS
// (`;`-separated, each `<entry>|<node flags and NAME=value environment variables>`), a freshly started gateway gets 1,000 slow streams
// at once, as in bench:gateway, with its RSS sampled every 50 ms; then 64 connections of plain
// requests for SECONDS, for the CPU per request. ROUNDS rounds, variants in turn.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { fakeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { openStreams, runLoad, type Target } from './load.js';
import { cpuMs, helper, startGateway, withSlowModel } from './probe-kit.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const variants = (process.env.VARIANTS ?? 'dist/api/main.js|').split(';').map((variant) => {
  const [entry, flags] = variant.split('|');
  // A flag of the form NAME=value is an environment variable of the gateway process, not a node flag.
  const words = (flags ?? '').split(' ').filter(Boolean);
  const env = Object.fromEntries(words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2) as [string, string]));
  return { entry: path.resolve(root, entry!), flags: words.filter((word) => !/^[A-Z_]+=/.test(word)), env, name: variant };
});
const seconds = Number(process.env.SECONDS ?? '3');
const rounds = Number(process.env.ROUNDS ?? '2');
const streams = Number(process.env.BENCH_STREAMS ?? '1000');

const status = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

const upstream = await helper('upstream');
const slow = await helper('upstream-slow');
const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
const body = (model: string) => (s: boolean) => JSON.stringify({ model, messages: [{ role: 'user', content: 'Summarize the meeting notes in two sentences.' }], stream: s });
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
    const settings = withSlowModel(fakeGatewayConfig({ primary: { baseUrl: `${upstream.url}/v1` } as FakeUpstream, timeoutMs: 30_000 }), slow.url);
    const gateway = await startGateway({ entry: variant.entry, nodeArgs: variant.flags, settings, temporalAddress: process.env.TEMPORAL_ADDRESS ?? temporal!.address, env: variant.env });
    const { child, url, apiKey } = gateway;
    const target: Target = { name: variant.name, url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${apiKey}` }, body: body('fake-model') };
    const idle = status(child.pid!, 'VmRSS');
    let max = idle;
    const sampler = setInterval(() => (max = Math.max(max, status(child.pid!, 'VmRSS'))), 50);
    const opened = await openStreams({ ...target, body: body('fake-slow') }, streams);
    clearInterval(sampler);
    await runLoad(target, { connections: 16, durationMs: 500, stream: false });
    const before = cpuMs(child.pid!);
    const load = await runLoad(target, { connections: 64, durationMs: seconds * 1000, stream: false });
    const cpu = ((cpuMs(child.pid!) - before) / load.requests) * 1000;
    console.log(`round ${round} ${variant.name}: ${opened.completed}/${streams} streams (${opened.maxOpen} open at once), RSS ${idle.toFixed(0)} MB idle, ${max.toFixed(0)} MB max while open; @64 ${load.rps.toFixed(0)} rps, ${cpu.toFixed(0)} µs CPU per request, peak RSS ${status(child.pid!, 'VmHWM').toFixed(0)} MB`);
    await gateway.stop();
  }
}
upstream.child.kill();
slow.child.kill();
await temporal?.stop();
process.exit(0);
