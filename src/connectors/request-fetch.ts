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
// error naming the limit (for a stream, an error answer to its request), instead of being
// buffered without end.
import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
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
    const body = streamed ? eventsCapped(answer.body, maxBytes, requestIdOf(init.body)) : await readCapped(answer.body, maxBytes);
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

/** Where each event ends in `bytes` (the offset after its blank line), in order; each mark is searched once per occurrence. */
function* eventEnds(bytes: Buffer): Generator<number> {
  const next = EVENT_ENDS.map((mark) => bytes.indexOf(mark));
  let from = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < EVENT_ENDS.length; i += 1) {
      // A mark found before `from` (inside a blank line already counted) is searched again from there.
      if (next[i]! !== -1 && next[i]! < from) next[i] = bytes.indexOf(EVENT_ENDS[i]!, from);
      if (next[i]! !== -1 && (best === -1 || next[i]! < next[best]!)) best = i;
    }
    if (best === -1) return;
    from = next[best]! + EVENT_ENDS[best]!.length;
    yield from;
  }
}

/** The JSON-RPC id of the one request a POST carries (the SDK's transport sends one message per POST), if any. */
function requestIdOf(body: RequestInit['body']): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stream, whole events at a time, as they come. When one event passes `maxBytes` its bytes are
 * dropped and the server's stream is closed; the stream ends with an error answer to the POST's
 * request (`requestId`), which fails that call at once naming the limit (the SDK leaves a request
 * whose stream merely broke waiting for its deadline), or errors when there is no request to
 * answer (the GET stream). A stream may run as long as each of its events stays under the limit.
 */
function eventsCapped(source: Readable, maxBytes: number, requestId: string | number | undefined): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The event not yet ended: its chunks, not joined until it ends (a large one costs no copies).
  let held: Buffer[] = [];
  let heldBytes = 0;
  let previousTail: Buffer = Buffer.alloc(0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const next = await chunks.next();
        if (next.done) {
          for (const part of held) controller.enqueue(part);
          controller.close();
          return;
        }
        const chunk = next.value;
        // With the two bytes before the chunk, a blank line split between chunks is seen.
        const seen: Buffer = previousTail.length ? Buffer.concat([previousTail, chunk]) : chunk;
        const offset = seen.length - chunk.length;
        previousTail = seen.subarray(Math.max(0, seen.length - 2));
        // Each event ending in the chunk, measured from the end of the one before (or the held bytes).
        let from = 0;
        let eventStartBytes = heldBytes;
        let overflow = false;
        for (const end of eventEnds(seen)) {
          const at = Math.max(0, end - offset);
          if (eventStartBytes + (at - from) > maxBytes) {
            overflow = true;
            break;
          }
          from = at;
          eventStartBytes = 0;
        }
        const ended = from > 0 ? [...held, chunk.subarray(0, from)] : [];
        for (const part of ended) controller.enqueue(part);
        if (!overflow) {
          if (from > 0) {
            held = [chunk.subarray(from)];
            heldBytes = chunk.length - from;
          } else {
            held.push(chunk);
            heldBytes += chunk.length;
          }
          overflow = heldBytes > maxBytes;
        }
        if (!overflow) {
          // A pull that enqueued nothing would not be called again: read on until something is.
          if (ended.length > 0) return;
          continue;
        }
        // One event past the limit: dropped, and the server's stream closed.
        held = [];
        await chunks.return?.();
        if (requestId === undefined) {
          controller.error(new AnswerTooLarge(maxBytes));
          return;
        }
        const answer = { jsonrpc: '2.0', id: requestId, error: { code: -32603, message: new AnswerTooLarge(maxBytes).message } };
        controller.enqueue(Buffer.from(`data: ${JSON.stringify(answer)}\n\n`));
        controller.close();
        return;
      }
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
