import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiStreamTranslator } from './providers/openai/index.js';
import type { NormalizedChunk } from './providers/types.js';
import { SseParser } from './sse.js';
import type { CallSignal } from './types.js';
import { fetchStream, type StreamRequest, type UpstreamChunks } from './upstream-stream.js';

/** What the test server does with the next request. */
let respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let closedEarly: Promise<void>;
let server: http.Server;
let pool: Pool;
const newPool = () => new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    closedEarly = new Promise((resolve) => res.once('close', () => !res.writableFinished && resolve()));
    req.resume();
    respond(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = newPool();
});
afterEach(async () => {
  // Destroyed, not closed: some tests leave a call open on purpose.
  await pool.destroy();
  server.closeAllConnections();
  pool = newPool();
});
afterAll(async () => {
  await pool.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const event = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: finish }] })}\n\n`;

class Failure extends Error {
  constructor(override readonly cause: unknown) {
    super(`failed: ${(cause as Error).message}`);
  }
}

function streamRequest(overrides: Partial<StreamRequest> = {}): StreamRequest {
  const parser = new SseParser();
  const translator = createOpenAiStreamTranslator();
  return {
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    headersTimeout: 2_000,
    bodyTimeout: 2_000,
    signal: undefined,
    errorBodyLimit: 16,
    decode: (bytes, push) => {
      for (const sse of parser.push(bytes)) for (const chunk of translator.translate(sse)) push(chunk);
    },
    failure: (error) => new Failure(error),
    ...overrides,
  };
}

async function drain(chunks: UpstreamChunks): Promise<{ contents: string[]; error: unknown }> {
  const contents: string[] = [];
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) contents.push(contentOf(next.value));
    return { contents, error: undefined };
  } catch (error) {
    return { contents, error };
  }
}

function contentOf(chunk: NormalizedChunk): string {
  return chunk.delta.content ?? '';
}

describe('fetchStream', () => {
  it('hands over the chunks in order, then ends', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'));
      res.write(event(' two'));
      res.end(event('', 'stop') + 'data: [DONE]\n\n');
    };
    const opened = await fetchStream(pool, streamRequest());
    expect(await drain(opened.chunks!)).toEqual({ contents: ['one', ' two', ''], error: undefined });
  });

  it('answers an error status with its headers and the start of its body, without chunks', async () => {
    respond = (_req, res) => res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"error":{"type":"rate_limit_exceeded"}}');
    const opened = await fetchStream(pool, streamRequest());
    expect(opened.chunks).toBeUndefined();
    expect(opened.error).toMatchObject({ statusCode: 429, headers: { 'retry-after': '2' }, text: '{"error":{"type"' });
  });

  it('raises a stream cut short after the chunks that arrived before it', async () => {
    respond = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'), () => req.socket.destroy());
    };
    const opened = await fetchStream(pool, streamRequest());
    const { contents, error } = await drain(opened.chunks!);
    expect(contents).toEqual(['one']);
    expect(error).toBeInstanceOf(Failure);
  });

  it('raises a stream that ends without a finish reason', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event('one'));
    };
    const { contents, error } = await drain((await fetchStream(pool, streamRequest())).chunks!);
    expect(contents).toEqual(['one']);
    expect((error as Failure).cause).toMatchObject({ name: 'UpstreamStreamError' });
  });

  it('raises an error the upstream reports inside the stream after the chunks decoded before it', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event('one') + `data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    };
    const { contents, error } = await drain((await fetchStream(pool, streamRequest())).chunks!);
    expect(contents).toEqual(['one']);
    expect((error as Failure).cause).toMatchObject({ name: 'UpstreamStreamError' });
  });

  it('rejects with the mapped failure when the upstream sends no status in time', async () => {
    respond = () => undefined;
    await expect(fetchStream(pool, streamRequest({ headersTimeout: 100 }))).rejects.toMatchObject({ cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } });
  });

  it('ends the upstream call when the consumer stops early', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'));
    };
    const chunks = (await fetchStream(pool, streamRequest())).chunks!;
    expect(contentOf((await chunks.next()).value as NormalizedChunk)).toBe('one');
    await chunks.return();
    await closedEarly;
    expect(await chunks.next()).toEqual({ done: true, value: undefined });
  });

  it('ends the upstream call and raises an abort when the caller signal fires mid-stream', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event('one'));
    };
    const signal = new ManualSignal();
    const chunks = (await fetchStream(pool, streamRequest({ signal }))).chunks!;
    await chunks.next();
    const pending = chunks.next();
    signal.abort();
    await expect(pending).rejects.toMatchObject({ cause: { code: 'UND_ERR_ABORTED' } });
    await closedEarly;
  });

  it('pauses the upstream while the consumer is behind and reads on once it catches up', async () => {
    // 40 MB: more than the loopback socket buffers hold.
    const total = 10_000;
    let written = 0;
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const writeMore = () => {
        while (written < total) {
          written += 1;
          if (!res.write(event(`${written} ${'x'.repeat(4_000)}`))) return void res.once('drain', writeMore);
        }
        res.end(event('', 'stop'));
      };
      writeMore();
    };
    const chunks = (await fetchStream(pool, streamRequest())).chunks!;
    await chunks.next();
    // Nothing is pulled now: the upstream writes until the socket buffers are full, then stops.
    const stalled = await writesStop(() => written, total);
    expect(stalled).toBeLessThan(total);
    const { contents, error } = await drain(chunks);
    expect(error).toBeUndefined();
    expect(contents).toHaveLength(total);
  });
});

/** The count once it stopped moving for 300 ms, or reached `total` (within a 10 s deadline). */
async function writesStop(count: () => number, total: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let last = -1;
  while (count() !== last && count() < total && Date.now() < deadline) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return count();
}

/** A caller signal like the route's (not an AbortSignal). */
class ManualSignal implements CallSignal {
  aborted = false;
  private listeners: Array<() => void> = [];
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }
  abort(): void {
    this.aborted = true;
    for (const listener of this.listeners) listener();
  }
}
