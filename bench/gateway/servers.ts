// The benchmark's helper servers, one per child process so none competes with the load
// generator's event loop: `upstream` (the fake upstream, fixed small answer, 0 ms think time),
// `upstream-slow` (the same, streaming a chunk every 200 ms) and `bare` (an undici pass-through
// proxy, nothing else: the floor for any Node gateway). Each prints `READY <url>` once listening.
// The gateway itself runs from the production build (see run.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startFakeUpstream } from '../../test/fixtures/fake-upstream.js';

const role = process.argv[2];
const upstreamUrl = process.env.BENCH_UPSTREAM_URL ?? '';

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

const roles: Record<string, () => Promise<void>> = { upstream, 'upstream-slow': upstreamSlow, bare };
const start = roles[role ?? ''];
if (!start) {
  console.error(`unknown role ${role}; one of ${Object.keys(roles).join(', ')}`);
  process.exit(2);
}
await start();
