// Profiling harness (not a benchmark): the production build of the gateway alone under a steady
// closed-loop load, for `--cpu-prof` and callgrind. Starts the fake upstream and the gateway like
// run.ts, warms up, then drives CONNECTIONS (default 64) for PROFILE_SECONDS (default 10) and
// prints rps. GATEWAY_NODE_ARGS adds node flags to the gateway (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
//   DATABASE_URL=… REDIS_URL=… npx tsx bench/gateway/profile.ts
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { gatewayEnv } from './gateway-env.js';
import { runLoad } from './load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const seconds = Number(process.env.PROFILE_SECONDS ?? '10');
const connections = Number(process.env.CONNECTIONS ?? '64');
const stream = process.env.STREAM === '1';

if (process.env.SKIP_BUILD !== '1') execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
const upstream = await startFakeUpstream();
upstream.setDefault({ content: 'The quick brown fox jumps over the lazy dog.', usage: { input: 12, output: 10 } });
setInterval(() => upstream.requests.splice(0), 1000).unref();
const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
const database = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL, 'bench_gateway') : undefined;
const settings = fakeGatewayConfig({ primary: { baseUrl: `${upstream.url}/v1` } as FakeUpstream, timeoutMs: 30_000 });
const port = await freePort();
const apiKey = `svc_live_${randomBytes(24).toString('hex')}`;
const nodeArgs = (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
const command = process.env.GATEWAY_WRAPPER ? process.env.GATEWAY_WRAPPER.split(' ') : [];
const child = spawn(command[0] ?? process.execPath, [...command.slice(1), ...(command.length ? [process.execPath] : []), ...nodeArgs, path.join(root, 'dist/api/main.js')], {
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
for (let ready = false; !ready; ) {
  ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
  if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
}
const target = {
  name: 'gateway',
  url,
  path: '/v1/chat/completions',
  headers: { authorization: `Bearer ${apiKey}` },
  body: (s: boolean) => JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'Summarize the meeting notes in two sentences.' }], stream: s }),
};
/** CPU time (user + system) the gateway process used so far, ms: per request, it hardly depends on the machine's load. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
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
