// Hostile input through the API (docs/design.md "Targets": for each parser a tenant's bytes reach,
// 1 MiB of its worst known input: the event loop never blocked > 50 ms, <= 20 ms per MiB in the
// request path). The API runs in this process on the embedded defaults (PGlite, in-process
// limits; DATABASE_URL and REDIS_URL are used when set) with a local Temporal dev server and a
// fake upstream (in a process of its own, upstream.ts) that reports no usage, so every answer's
// usage is estimated too; the client sends from a worker thread. Each input goes
// once to warm up, then RUNS times; the table shows the median wall time, that time per MiB of
// body, the longest event-loop stall seen during the request (perf_hooks, 1 ms resolution) and
// RSS after. Time in the tokenizer's worker thread counts in the wall time, not in the stall.
// Baselines in the same run: ordinary prose of the same size, and a request with a tiny body. A
// row's "over the floor" is its time per MiB above its route's baseline of ordinary prose (taking
// and parsing a 1 MiB JSON body, the schema, and on chat the upstream round trip): the parser's own.
// Usage: npm run bench:hostile  (BENCH_RUNS=5, BENCH_BODY_BYTES=1048576, BENCH_ONLY=<part of a row's name>,
// BENCH_PROFILE=<dir>: a CPU profile of each row's measured runs)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { startApi } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { ADVERSARIAL, COMMON_SHAPES } from '../../src/gateway/dlp/adversarial.js';
import { createLogger } from '../../src/logger.js';
import { openRuntime } from '../../src/runtime.js';
import { fakeGatewayConfig, writeGatewayConfig, type FakeUpstream } from '../../test/fixtures/fake-upstream.js';
import { createTestOrganization } from '../../test/helpers/orgs.js';
import { worstImages, worstPdfs } from './pdf-inputs.js';
import { printTable as table } from '../markdown-table.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BODY = Number(process.env.BENCH_BODY_BYTES ?? 1024 * 1024);
const MIB = 1024 * 1024;
/** Room for the JSON around the hostile value, so the body stays under the limit. */
const TEXT = BODY - 2048;

interface Case {
  parser: string;
  input: string;
  path: string;
  body: unknown;
  /** The ordinary-prose baseline of its route, whose time per MiB the row's is compared with. */
  floor?: true;
}

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919 + (i >> 7)) % 26))).join('');
const cjk = (n: number) => Array.from({ length: Math.floor(n / 3) }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join('');
const emoji = (n: number) => Array.from({ length: Math.floor(n / 4) }, (_, i) => String.fromCodePoint(0x1f300 + ((i * 31) % 700))).join('');
const punctuation = (n: number) => Array.from({ length: n }, (_, i) => '!@#$%^&*()_+-=[]{};:,.<>/?'[(i * 7) % 26]).join('');
const special = (n: number) => '<|endoftext|>'.repeat(Math.floor(n / 13));
const prose = (n: number) => {
  const words = 'the quarterly report shows steady growth in recurring revenue while support tickets fell after the new onboarding flow shipped'.split(' ');
  let text = '';
  for (let i = 0; text.length < n; i++) text += (i % 13 === 12 ? '. ' : ' ') + words[(i * 7) % words.length];
  return text.slice(0, n);
};

// count_tokens speaks the Messages API: text, or Anthropic's image and document blocks.
const countTokens = (content: unknown) => ({ model: 'fake-model', messages: [{ role: 'user', content }] });
const base64Block = (type: 'image' | 'document', dataUrl: string) => {
  const [head, data] = dataUrl.split(',', 2) as [string, string];
  return { type, source: { type: 'base64', media_type: head.slice('data:'.length, head.indexOf(';')), data } };
};
const chat = (content: unknown) => ({ model: 'fake-model', messages: [{ role: 'user', content }] });

function cases(stored: { itemId: string } | undefined, chain: string | undefined): Case[] {
  const out: Case[] = [
    { parser: 'baseline', input: 'tiny body', path: '/v1/messages/count_tokens', body: countTokens('hello') },
    { parser: 'baseline', input: 'ordinary prose (count_tokens)', path: '/v1/messages/count_tokens', body: countTokens(prose(TEXT)), floor: true },
    { parser: 'baseline', input: 'ordinary prose (chat, usage estimated)', path: '/v1/chat/completions', body: chat(prose(TEXT)), floor: true },
  ];
  for (const [input, text] of [['unbroken letters', letters], ['CJK', cjk], ['emoji', emoji], ['punctuation', punctuation], ['<|endoftext|> repeated', special]] as const) {
    out.push({ parser: 'tokenizer (count_tokens)', input, path: '/v1/messages/count_tokens', body: countTokens(text(TEXT)) });
  }
  out.push({ parser: 'tokenizer (usage estimate)', input: 'unbroken letters', path: '/v1/chat/completions', body: chat(letters(TEXT)) });
  // Base64 grows 4/3: files of 3/4 of the text budget.
  for (const pdf of worstPdfs(Math.floor((TEXT * 3) / 4))) {
    out.push({ parser: 'PDF pages (count_tokens)', input: pdf.name, path: '/v1/messages/count_tokens', body: countTokens([base64Block('document', pdf.dataUrl)]) });
  }
  for (const image of worstImages(Math.floor((TEXT * 3) / 4))) {
    out.push({ parser: 'image sizes (count_tokens)', input: image.name, path: '/v1/messages/count_tokens', body: countTokens([base64Block('image', image.dataUrl)]) });
  }
  out.push({ parser: 'URL (image_url, DLP)', input: 'https URL of 1 MiB', path: '/v1/chat/completions', body: chat([{ type: 'image_url', image_url: { url: `https://images.example.test/${letters(TEXT - 40)}.png` } }]) });
  const mixed = Object.values({ ...COMMON_SHAPES, ...Object.assign({}, ...Object.values(ADVERSARIAL)) } as Record<string, (n: number) => string>);
  out.push({ parser: 'DLP (all detectors)', input: 'every adversarial shape mixed', path: '/v1/chat/completions', body: chat(mixed.map((shape) => shape(Math.floor(TEXT / mixed.length))).join(' ')) });
  const unknown = Array.from({ length: 2_048 }, (_, i) => ({ type: 'item_reference', id: `msg_${String(i).padStart(32, '0')}` }));
  out.push({ parser: 'references (Responses)', input: '2,048 item_references to unknown ids', path: '/v1/responses', body: { model: 'fake-model', input: unknown } });
  if (chain) {
    out.push({ parser: 'references (Responses)', input: 'previous_response_id of ~2.5 MiB of text stored', path: '/v1/responses', body: { model: 'fake-model', store: false, previous_response_id: chain, input: 'And then?' } });
  }
  if (stored) {
    const copies = Array.from({ length: 2_048 }, () => ({ type: 'item_reference', id: stored.itemId }));
    out.push({ parser: 'references (Responses)', input: '2,048 item_references to one stored PDF', path: '/v1/responses', body: { model: 'fake-model', store: false, input: copies } });
  }
  return out;
}

/** Three stored responses of ~860 KiB of prose each, one continuing the other: a long conversation a continuation resolves (the cap, 4 x the body limit, counts stored bytes: encrypted, so more than the text). */
async function storedChain(baseUrl: string, key: string): Promise<string | undefined> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let previous: string | undefined;
  for (let turn = 0; turn < 3; turn++) {
    const body = { model: 'fake-model', store: true, input: prose(Math.floor(TEXT * 0.84)), ...(previous ? { previous_response_id: previous } : {}) };
    const created = await fetch(`${baseUrl}/v1/responses`, { method: 'POST', headers, body: JSON.stringify(body) });
    const { id } = (await created.json()) as { id?: string };
    if (!id) return undefined;
    previous = id;
  }
  return previous;
}

/** A stored response whose input holds the worst PDF at half the body limit: what references can copy. */
async function storedPdf(baseUrl: string, key: string): Promise<{ itemId: string } | undefined> {
  const [pdf] = worstPdfs(Math.floor(TEXT / 2));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const input = [{ role: 'user', content: [{ type: 'input_text', text: 'Read this.' }, { type: 'input_file', filename: 'a.pdf', file_data: pdf!.dataUrl }] }];
  const created = await fetch(`${baseUrl}/v1/responses`, { method: 'POST', headers, body: JSON.stringify({ model: 'fake-model', store: true, input }) });
  const { id } = (await created.json()) as { id?: string };
  if (!id) return undefined;
  const items = (await (await fetch(`${baseUrl}/v1/responses/${id}/input_items`, { headers })).json()) as { data?: { id: string }[] };
  const itemId = items.data?.[0]?.id;
  return itemId ? { itemId } : undefined;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-workspace-hostile-'));
  const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
  const upstream = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'upstream.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve) => upstream.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString('base64'),
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? temporal!.address,
    GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: { baseUrl } as FakeUpstream })),
    BODY_LIMIT_BYTES: String(BODY),
    RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORG_PER_MINUTE: '1000000',
  });
  const runtime = await openRuntime(config, createLogger({ level: 'warn' }));
  const api = await startApi(runtime, { port: 0, host: '127.0.0.1' });
  const org = await createTestOrganization(runtime.orm);
  const stored = await storedPdf(api.url, org.owner.key);
  const chain = await storedChain(api.url, org.owner.key);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const client = new Client();
  try {
    console.log(`# Hostile input through the API: ${(BODY / MIB).toFixed(2)} MiB bodies, ${RUNS} runs each (median wall, worst stall), Node ${process.versions.node}, ${config.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n`);
    const rows: string[][] = [];
    const only = process.env.BENCH_ONLY;
    /** Each route's baseline time per MiB, once measured. */
    const floors = new Map<string, number>();
    for (const item of cases(stored, chain).filter((c) => c.floor || !only || `${c.parser} ${c.input}`.includes(only))) {
      const text = JSON.stringify(item.body);
      await client.load(`${api.url}${item.path}`, { authorization: `Bearer ${org.owner.key}`, 'x-api-key': org.owner.key, 'content-type': 'application/json' }, text);
      const send = () => client.send();
      await send();
      const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const walls: number[] = [];
      let stall = 0;
      let status = 0;
      for (let run = 0; run < RUNS; run++) {
        delay.reset();
        delay.enable();
        const started = performance.now();
        status = await send();
        walls.push(performance.now() - started);
        delay.disable();
        stall = Math.max(stall, delay.max / 1e6);
      }
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = path.join(process.env.BENCH_PROFILE!, `${item.parser} ${item.input}.cpuprofile`.replace(/[^\w.-]+/g, '_'));
        fs.writeFileSync(file, JSON.stringify(profile));
        profiler.disconnect();
      }
      const wall = walls.sort((a, b) => a - b)[Math.floor(walls.length / 2)]!;
      const bytes = Buffer.byteLength(text);
      const perMiB = bytes >= MIB / 2 ? wall / (bytes / MIB) : undefined;
      if (item.floor && perMiB !== undefined) floors.set(item.path, perMiB);
      const floor = floors.get(item.path);
      const overFloor = perMiB === undefined || floor === undefined || item.floor ? '-' : (perMiB - floor).toFixed(1);
      rows.push([item.parser, item.input, String(status), `${(bytes / MIB).toFixed(2)}`, wall.toFixed(1), perMiB?.toFixed(1) ?? '-', overFloor, stall.toFixed(1), (process.memoryUsage().rss / 1e6).toFixed(0)]);
      console.error(`  ${item.parser}: ${item.input} done`);
    }
    table(['parser', 'worst input', 'status', 'MiB', 'wall ms', 'ms per MiB', 'over the floor, ms per MiB', 'longest stall ms', 'RSS MB'], rows);
    console.log('Targets: longest stall <= 50 ms; <= 20 ms per MiB in the request path (docs/design.md, Targets). The floor: the route\'s baseline of ordinary prose.');
  } finally {
    await client.close();
    await api.stop(2000);
    await runtime.close();
    upstream.kill();
    await temporal?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// The client runs in a worker thread, on an event loop of its own: sending 1 MiB must not count as the API's stall.
const CLIENT_SOURCE = `
const { parentPort } = require('node:worker_threads');
let loaded;
parentPort.on('message', async (message) => {
  if (message.type === 'load') { loaded = message; parentPort.postMessage({}); return; }
  const res = await fetch(loaded.url, { method: 'POST', headers: loaded.headers, body: loaded.body });
  await res.arrayBuffer();
  parentPort.postMessage({ status: res.status });
});`;

class Client {
  private readonly worker = new Worker(CLIENT_SOURCE, { eval: true });

  load(url: string, headers: Record<string, string>, body: string): Promise<unknown> {
    return this.ask({ type: 'load', url, headers, body });
  }

  async send(): Promise<number> {
    return ((await this.ask({ type: 'send' })) as { status: number }).status;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }

  private ask(message: unknown): Promise<unknown> {
    return new Promise((resolve) => {
      this.worker.once('message', resolve);
      this.worker.postMessage(message);
    });
  }
}

await main();
process.exit(0);
