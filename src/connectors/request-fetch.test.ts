import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpFixture } from '../../test/fixtures/mcp-server.js';
import { AnswerTooLarge, MCP_ANSWER_MAX_BYTES, requestFetch } from './request-fetch.js';

let server: http.Server;
let base: string;
/** Lets the streamed answer send its second event. */
let releaseSecondEvent: () => void = () => {};
/** The server's side of /endless-event, to see that the client dropped it. */
let endlessEventResponse: http.ServerResponse | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/json') {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
      } else if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        releaseSecondEvent = () => res.end('data: second\n\n');
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/json' }).end('moved');
      } else if (req.url === '/empty') {
        res.writeHead(202).end();
      } else if (req.url === '/oversized') {
        // 4 KiB, chunked, with no length declared: only counting finds it too large.
        res.setHeader('content-type', 'application/json');
        for (let i = 0; i < 4; i += 1) res.write('x'.repeat(1024));
        res.end();
      } else if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2048' }).end('x'.repeat(2048));
      } else if (req.url === '/many-events') {
        // 64 small events, each blank line split across two writes: 5 KiB in all, every event bounded.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < 64; i += 1) {
          res.write(`data: ${'e'.repeat(70)}\n`);
          res.write('\n');
        }
        res.end();
      } else if (req.url === '/endless-event') {
        // One event that never ends: data lines without the blank line that closes it.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < 8; i += 1) res.write(`data: ${'y'.repeat(250)}\n`);
        endlessEventResponse = res;
      } else if (req.url === '/hang') {
        // never answers
      } else {
        res.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requestFetch (the MCP client transport fetch)', () => {
  const fetcher = requestFetch();

  it('sends method, headers and body, and answers a whole JSON body with every header value', async () => {
    const headers = new Headers({ authorization: 'Bearer t' });
    const response = await fetcher(`${base}/json`, { method: 'POST', headers, body: '{"x":1}' });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"x":1}', auth: 'Bearer t' });
  });

  it('streams an event stream as it comes, before the server ends it', async () => {
    const response = await fetcher(`${base}/events`, { method: 'GET' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    releaseSecondEvent();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('returns a redirect as it is, and refuses it when the request says redirect: error', async () => {
    const manual = await fetcher(`${base}/moved`, { method: 'GET', redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/json');
    await expect(fetcher(`${base}/moved`, { method: 'GET', redirect: 'error' })).rejects.toThrow(/fetch failed/);
  });

  it('answers 202 and 204 without a body', async () => {
    const accepted = await fetcher(`${base}/empty`, { method: 'POST', body: '{}' });
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe('');
    const none = await fetcher(`${base}/none`, { method: 'DELETE' });
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
  });

  it('leaves no listener on the long-lived signal the transport passes to every request', async () => {
    const session = new AbortController();
    for (let i = 0; i < 50; i += 1) {
      const response = await fetcher(`${base}/json`, { method: 'POST', body: String(i), signal: session.signal });
      await response.json();
    }
    // WHATWG fetch leaves all 50 until garbage collection; request removes each as its answer ends.
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('refuses a whole answer past the limit as soon as it counts past it, declared or not', async () => {
    const small = requestFetch(undefined, 1024);
    await expect(small(`${base}/oversized`, { method: 'POST', body: '{}' })).rejects.toThrow(AnswerTooLarge);
    await expect(small(`${base}/declared`, { method: 'POST', body: '{}' })).rejects.toThrow(/larger than .* MiB/);
    // The default is the SDK's bound on a stdio connector's line.
    expect(MCP_ANSWER_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect((await fetcher(`${base}/declared`, { method: 'POST', body: '{}' })).status).toBe(200);
  });

  it('lets a stream run past the limit while each event stays under it', async () => {
    const response = await requestFetch(undefined, 1024)(`${base}/many-events`, { method: 'GET' });
    const text = await response.text();
    expect(text.length).toBeGreaterThan(4 * 1024);
    expect(text.match(/^data: /gm)).toHaveLength(64);
  });

  it('fails a stream whose one event passes the limit, and drops the connection', async () => {
    const response = await requestFetch(undefined, 1024)(`${base}/endless-event`, { method: 'GET' });
    await expect(response.text()).rejects.toThrow(AnswerTooLarge);
    await expect.poll(() => endlessEventResponse?.destroyed || endlessEventResponse?.socket?.destroyed !== false).toBe(true);
  });

  it("answers the stream's request with an error naming the limit when its event passes it", async () => {
    const response = await requestFetch(undefined, 1024)(`${base}/endless-event`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call' }) });
    const text = await response.text();
    // Not one byte of the oversized event: only the error answer, for the request's id.
    expect(text).not.toMatch(/yyy/);
    expect(JSON.parse(/^data: (.*)$/m.exec(text)![1]!)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: expect.stringMatching(/larger than .* MiB/) } });
    await expect.poll(() => endlessEventResponse?.destroyed || endlessEventResponse?.socket?.destroyed !== false).toBe(true);
  });

  it('fails an MCP call at once, through the official client, when a server streams an answer past the limit; the session goes on', async () => {
    const fixture = await startMcpHttpFixture({ token: 't', eventStreams: true });
    const client = new Client({ name: 'request-fetch-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url), { requestInit: { headers: { Authorization: 'Bearer t' } }, fetch: requestFetch(undefined, 64 * 1024) }));
      const started = Date.now();
      const refused = await client.callTool({ name: 'large', arguments: { size: 100_000 } }, undefined, { timeout: 20_000 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).message).toMatch(/larger than 0.0625 MiB/);
      // Not the call's deadline: the answer came as soon as the bytes passed the limit.
      expect(Date.now() - started).toBeLessThan(5_000);
      const small = await client.callTool({ name: 'large', arguments: { size: 1_000 } });
      expect((small.content as Array<{ text: string }>)[0]!.text).toHaveLength(1_000);
    } finally {
      await client.close();
      await fixture.stop();
    }
  });

  it('aborts a request in flight when the signal fires', async () => {
    const session = new AbortController();
    const pending = fetcher(`${base}/hang`, { method: 'POST', body: '{}', signal: session.signal });
    session.abort();
    await expect(pending).rejects.toThrow();
  });
});
