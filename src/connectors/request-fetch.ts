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
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch for the MCP client transport; `dispatcher` is a pinned agent when the connection has one. */
export function requestFetch(dispatcher?: Dispatcher): typeof fetch {
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
    const body = streamed ? (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>) : await answer.body.arrayBuffer();
    return new Response(body, { status, headers });
  }) as typeof fetch;
}
