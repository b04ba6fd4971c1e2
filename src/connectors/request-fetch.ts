// The fetch the MCP SDK's Streamable HTTP client transport uses to reach a remote connector,
// built on undici's `request` rather than WHATWG fetch. Two reasons, both measured on /v1/mcp's
// path (BENCHMARKS.md, "MCP gateway"):
// - the transport hands every fetch its one long-lived abort signal; fetch leaves an `abort`
//   listener on it per request until garbage collection, and each new fetch walks that growing
//   list (`getEventListeners`), so a pooled session got slower the longer it lived (Node warns past
//   1,500 listeners). `request` removes its listener when the response ends;
// - fetch builds a Request, clones and tees web streams for every call: `request` plus one Response
//   costs about a third of its CPU.
// Redirects are never followed here: a 3xx comes back as it is (the SDK follows one within its
// origin itself), and with `redirect: 'error'` (a pinned connection) it is an error, as fetch makes it.
// A remote server's bytes are bounded as a stdio connector's are (the SDK's 10 MiB line buffer): an
// answer read whole, and each event of a stream, is cut off past MCP_ANSWER_MAX_BYTES with an
// error naming the limit, instead of being buffered without end.
import { setMaxListeners } from 'node:events';
import { Readable, Transform, pipeline } from 'node:stream';
import { request, type Dispatcher } from 'undici';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);
/** The most a remote MCP server may send as one answer or one event, as the SDK bounds a stdio line. */
export const MCP_ANSWER_MAX_BYTES = 10 * 1024 * 1024;

/** A remote server's answer (or one event of its stream) past MCP_ANSWER_MAX_BYTES. */
export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the MCP server's answer is larger than ${limit / 1024 / 1024} MiB, the most accepted from a remote server`);
    this.name = 'AnswerTooLarge';
  }
}

/** A fetch for the MCP client transport; `dispatcher` is a pinned agent when the connection has one. */
export function requestFetch(dispatcher?: Dispatcher, maxBytes = MCP_ANSWER_MAX_BYTES): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input;
    // One listener per request in flight on the session's signal, each removed as its answer
    // ends: concurrent calls on a pooled session are not a leak to warn about.
    if (init.signal) setMaxListeners(0, init.signal);
    const answer = await request(url, {
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: Object.fromEntries(new Headers(init.headers)),
      body: (init.body ?? null) as string | null,
      signal: init.signal ?? undefined,
      ...(dispatcher ? { dispatcher } : {}),
    });
    const status = answer.statusCode;
    if (init.redirect === 'error' && REDIRECTS.has(status)) {
      await answer.body.dump();
      throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      else if (value !== undefined) headers.set(name, value);
    }
    if (NULL_BODY.has(status)) {
      await answer.body.dump();
      return new Response(null, { status, headers });
    }
    // An event stream is read as it comes; anything else is read whole, as response.json() would.
    const streamed = (headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    if (!streamed && Number(headers.get('content-length') ?? 0) > maxBytes) {
      // Dropped unread: undici reports its own destroy as an error nobody else listens for.
      answer.body.on('error', () => {}).destroy();
      throw new AnswerTooLarge(maxBytes);
    }
    const body = streamed ? (Readable.toWeb(eventsCapped(answer.body, maxBytes)) as ReadableStream<Uint8Array>) : await readCapped(answer.body, maxBytes);
    return new Response(body, { status, headers });
  }) as typeof fetch;
}

/** The whole body, refused (and the connection dropped) as soon as it passes `maxBytes`. */
async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop destroys the body: the rest is never read.
    if (size > maxBytes) throw new AnswerTooLarge(maxBytes);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/** Line ends that close an event: a blank line after a line. */
const EVENT_ENDS = ['\n\n', '\r\r', '\n\r\n'];

/**
 * The stream as it comes, failing with AnswerTooLarge when one event (the bytes since the last
 * blank line) passes `maxBytes`: a stream may run as long as its events are each bounded.
 */
function eventsCapped(source: Readable, maxBytes: number): Readable {
  let sinceEventEnd = 0;
  let tail: Buffer = Buffer.alloc(0);
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // The last two bytes of the chunk before, so a blank line split between chunks is seen.
      const seen: Buffer = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      const end = Math.max(...EVENT_ENDS.map((mark) => {
        const at = seen.lastIndexOf(mark);
        return at === -1 ? -1 : at + mark.length;
      }));
      sinceEventEnd = end === -1 ? sinceEventEnd + chunk.length : seen.length - end;
      tail = seen.subarray(Math.max(0, seen.length - 2));
      if (sinceEventEnd > maxBytes) done(new AnswerTooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  return pipeline(source, cap, () => {});
}
