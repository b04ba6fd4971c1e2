// bench:gateway's prompt-caching row: a 20-turn tool loop with a ~10,000-token system
// prompt through /v1/messages to an Anthropic-style fake upstream that bills as Anthropic does
// (reads 0.1x the input price, 5-minute writes 1.25x, 1-hour writes 2x), its own bill the
// reference. The same loop runs with breakpoints (cache_control on the system prompt, the last
// tool and the last block of each turn, as Claude Code sets them) and without; the table shows each
// run's prompt tokens, what the upstream read and wrote, its bill against the gateway's cost
// (X-Gateway-Cost, summed), and the gateway's sequential overhead over sending the same bodies
// straight to a twin fake (mean of the per-turn differences, LOOPS loops per variant, interleaved).
// It measures what arrives: the breakpoints the upstream saw are counted, not assumed.
//
// The gateway is the production build (run.ts builds it) on a scratch PostgreSQL database beside
// DATABASE_URL (required), Redis when REDIS_URL is set, and a Temporal dev server (or
// TEMPORAL_ADDRESS). Run: `BENCH_ONLY=prompt-cache npm run bench:gateway` (LOOPS, default 5).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, startTemporalDevServer } from '../../src/dev/temporal-server.js';
import { API_NODE_FLAGS } from '../../src/node-flags.js';
import { printTable } from '../markdown-table.js';
import { startGateway } from './probe-kit.js';

const LOOPS = Number(process.env.LOOPS ?? '5');
const TURNS = 20;
/** Claude Sonnet's prices, USD per 1M tokens: the gateway's model and the fake's bill alike. */
const PRICES = { input: 3, output: 15, read: 0.3, write5m: 3.75, write1h: 6 };
const OUTPUT_TOKENS = 40;
/** Block boundaries a breakpoint looks back over for a cache hit (Anthropic: about 20). */
const LOOKBACK = 20;

interface Bill {
  requests: number;
  breakpoints: number;
  prompt: number;
  read: number;
  write: number;
  output: number;
  usd: number;
}

/** Tokens as the fake counts them: a character in four (Anthropic's tokenizer is near that on English). */
const tokensOf = (value: unknown): number => Math.ceil(JSON.stringify(value).length / 4);

/**
 * An Anthropic-style upstream with a prompt cache: the prompt is its tools, system blocks and
 * message blocks in order; each breakpoint makes the prefix up to it an entry. A request reads the
 * longest entry it repeats (within 20 blocks before one of its breakpoints) and writes the rest up
 * to its last breakpoint; it bills that as Anthropic does and answers with a tool call until the
 * last turn.
 */
function startAnthropicFake(): Promise<{ url: string; bill: Bill; reset(): void; close(): void }> {
  const cached = new Set<string>();
  const bill: Bill = { requests: 0, breakpoints: 0, prompt: 0, read: 0, write: 0, output: 0, usd: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tools?: unknown[]; system?: unknown; messages: Array<{ content: unknown }> };
      const usage = cacheUsage(body, cached);
      const turn = body.messages.filter((message) => (message as { role?: string }).role === 'user').length;
      bill.requests += 1;
      bill.breakpoints += usage.breakpoints;
      bill.prompt += usage.uncached + usage.read + usage.write5m + usage.write1h;
      bill.read += usage.read;
      bill.write += usage.write5m + usage.write1h;
      bill.output += OUTPUT_TOKENS;
      bill.usd += (usage.uncached * PRICES.input + usage.read * PRICES.read + usage.write5m * PRICES.write5m + usage.write1h * PRICES.write1h + OUTPUT_TOKENS * PRICES.output) / 1e6;
      const last = turn >= TURNS;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: `msg_${bill.requests}`, type: 'message', role: 'assistant', model: 'claude-bench',
        content: last ? [{ type: 'text', text: 'Done.' }] : [{ type: 'tool_use', id: `toolu_${turn}`, name: 'read_file', input: { path: `src/file-${turn}.ts` } }],
        stop_reason: last ? 'end_turn' : 'tool_use', stop_sequence: null,
        usage: {
          input_tokens: usage.uncached, output_tokens: OUTPUT_TOKENS,
          cache_read_input_tokens: usage.read, cache_creation_input_tokens: usage.write5m + usage.write1h,
          cache_creation: { ephemeral_5m_input_tokens: usage.write5m, ephemeral_1h_input_tokens: usage.write1h },
        },
      }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bill,
    reset: () => {
      cached.clear();
      Object.assign(bill, { requests: 0, breakpoints: 0, prompt: 0, read: 0, write: 0, output: 0, usd: 0 });
    },
    close: () => server.close(),
  })));
}

function cacheUsage(body: { tools?: unknown[]; system?: unknown; messages: Array<{ content: unknown }> }, cached: Set<string>) {
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : ((body.system as unknown[] | undefined) ?? []);
  const blocks = [
    ...(body.tools ?? []),
    ...system,
    ...body.messages.flatMap((message) => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as unknown[]))),
  ] as Array<Record<string, unknown>>;
  // The prefix (key, tokens) at every block boundary: a breakpoint reads the longest cached one
  // among the LOOKBACK boundaries before it, as Anthropic's cache does, and caches its own.
  const prefixes: Array<{ key: string; tokens: number }> = [];
  let key = '';
  let total = 0;
  let read = 0;
  let lastBreakpoint = 0;
  let lastTtl = '5m';
  let breakpoints = 0;
  for (const block of blocks) {
    const { cache_control: breakpoint, ...plain } = block as { cache_control?: { ttl?: string } };
    key += JSON.stringify(plain);
    total += tokensOf(plain);
    prefixes.push({ key, tokens: total });
    if (!breakpoint) continue;
    breakpoints += 1;
    const hit = prefixes.slice(-LOOKBACK).reverse().find((prefix) => cached.has(prefix.key));
    if (hit) read = Math.max(read, hit.tokens);
    cached.add(key);
    lastBreakpoint = total;
    lastTtl = breakpoint.ttl ?? '5m';
  }
  const write = Math.max(0, lastBreakpoint - read);
  return { breakpoints, read, write5m: lastTtl === '1h' ? 0 : write, write1h: lastTtl === '1h' ? write : 0, uncached: total - read - write };
}

/** A ~10,000-token system prompt, unique per loop so no loop reads another's cache. */
function systemPrompt(loop: string): string {
  const rule = 'Follow the repository conventions: small functions, named helpers, tests beside the code, errors as coded AppErrors. ';
  return `Loop ${loop}. You are a coding agent. ${rule.repeat(Math.ceil(40_000 / rule.length))}`;
}

const TOOLS = [
  { name: 'read_file', description: 'Reads a file of the repository.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'write_file', description: 'Writes a file of the repository.', input_schema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] } },
];
const EPHEMERAL = { type: 'ephemeral' } as const;

/** The Messages body of one turn: breakpoints (system, last tool, last block of the turn) or none. */
function turnBody(loop: string, history: Array<Record<string, unknown>>, caching: boolean): Record<string, unknown> {
  const messages = caching
    ? history.map((message, index) => (index === history.length - 1 ? withLastBlockBreakpoint(message) : message))
    : history;
  return {
    model: 'bench-claude',
    max_tokens: 512,
    system: [{ type: 'text', text: systemPrompt(loop), ...(caching ? { cache_control: EPHEMERAL } : {}) }],
    tools: caching ? TOOLS.map((tool, index) => (index === TOOLS.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool)) : TOOLS,
    messages,
  };
}

function withLastBlockBreakpoint(message: Record<string, unknown>): Record<string, unknown> {
  const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Array<Record<string, unknown>>);
  return { ...message, content: blocks.map((block, index) => (index === blocks.length - 1 ? { ...block, cache_control: EPHEMERAL } : block)) };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ ms: number; json: Record<string, unknown>; cost: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return { ms, json, cost: Number(response.headers.get('x-gateway-cost') ?? NaN) };
}

interface LoopResult {
  gatewayCost: number;
  overheadMs: number[];
}

/** One 20-turn tool loop through the gateway, each turn's body also sent straight to the twin fake. */
async function toolLoop(loop: string, caching: boolean, gateway: { url: string; apiKey: string }, directUrl: string): Promise<LoopResult> {
  const history: Array<Record<string, unknown>> = [{ role: 'user', content: 'Refactor the billing module.' }];
  const result: LoopResult = { gatewayCost: 0, overheadMs: [] };
  for (let turn = 1; turn <= TURNS; turn++) {
    const body = turnBody(loop, history, caching);
    const direct = await post(directUrl, { 'x-api-key': 'sk-ant-direct' }, body);
    const through = await post(gateway.url, { authorization: `Bearer ${gateway.apiKey}` }, body);
    result.gatewayCost += through.cost;
    result.overheadMs.push(through.ms - direct.ms);
    const content = through.json.content as Array<Record<string, unknown>>;
    history.push({ role: 'assistant', content });
    const call = content.find((block) => block.type === 'tool_use');
    if (!call) break;
    history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: `// contents of ${JSON.stringify(call.input)}\n${'export const x = 1;\n'.repeat(40)}` }] });
  }
  return result;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The row's loops and table; `root` is the repository, whose dist/ holds the built gateway. */
export async function promptCacheRow(root: string): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (PostgreSQL) is required: the gateway runs on a scratch database beside it');
  const [upstream, twin] = await Promise.all([startAnthropicFake(), startAnthropicFake()]);
  const temporal = process.env.TEMPORAL_ADDRESS ? undefined : await startTemporalDevServer({ port: await freePort() });
  const settings = {
    providers: [{ id: 'anthropic-fake', type: 'anthropic', baseUrl: `${upstream.url}/v1`, apiKey: 'sk-ant-fake', timeoutMs: 30_000 }],
    models: [{ id: 'bench-claude', targets: [{ provider: 'anthropic-fake', upstreamModel: 'claude-bench' }], inputPricePer1M: PRICES.input, outputPricePer1M: PRICES.output, maxOutputTokens: 4096 }],
  };
  const gateway = await startGateway({ entry: path.join(root, 'dist/api/main.js'), nodeArgs: [...API_NODE_FLAGS], settings, temporalAddress: process.env.TEMPORAL_ADDRESS ?? temporal!.address });
  try {
    // Warm-up: connections, JIT, the key's first lookups.
    await toolLoop('warm-up', true, gateway, twin.url);
    const rows: string[][] = [];
    const overheads: Record<string, number[]> = { caching: [], none: [] };
    const bills: Record<string, { upstream: Bill; gateway: number }> = {};
    for (let loop = 0; loop < LOOPS; loop++) {
      for (const variant of loop % 2 === 0 ? ['caching', 'none'] : ['none', 'caching']) {
        upstream.reset();
        const result = await toolLoop(`${variant}-${loop}`, variant === 'caching', gateway, twin.url);
        overheads[variant]!.push(...result.overheadMs);
        // Every loop bills the same (a fresh prompt each): the last one is the table's.
        bills[variant] = { upstream: { ...upstream.bill }, gateway: result.gatewayCost };
      }
    }
    for (const variant of ['caching', 'none']) {
      const { upstream: bill, gateway: cost } = bills[variant]!;
      const overhead = overheads[variant]!;
      rows.push([
        variant === 'caching' ? 'breakpoints (system, last tool, last block of each turn)' : 'no breakpoints',
        String(bill.requests),
        (bill.breakpoints / bill.requests).toFixed(1),
        bill.prompt.toLocaleString('en-US'),
        bill.read.toLocaleString('en-US'),
        bill.write.toLocaleString('en-US'),
        bill.usd.toFixed(6),
        cost.toFixed(6),
        `${(((cost - bill.usd) / bill.usd) * 100).toFixed(4)}%`,
        `${mean(overhead).toFixed(3)} / ${median(overhead).toFixed(3)}`,
      ]);
    }
    console.log(`\nPrompt caching: a ${TURNS}-turn tool loop, ~10,000-token system prompt, /v1/messages (${LOOPS} loops per variant, interleaved; ${overheads.caching!.length} turns each)\n`);
    printTable(
      ['variant', 'requests', 'breakpoints per request at the upstream', 'prompt tokens', 'cache read', 'cache written', "upstream's bill (USD)", "gateway's cost (USD)", 'gateway vs bill', 'overhead mean / median (ms)'],
      rows,
    );
    const saving = 1 - bills.caching!.upstream.usd / bills.none!.upstream.usd;
    console.log(`\nCaching costs ${(100 - saving * 100).toFixed(1)}% of the uncached loop (upstream's bill), a saving of ${(saving * 100).toFixed(1)}%.`);
  } finally {
    await gateway.stop();
    await temporal?.stop();
    upstream.close();
    twin.close();
  }
}
