// The gateway's fast path: POST /v1/chat/completions, /v1/embeddings, /v1/responses and
// /v1/messages with an API key (bearer, or Anthropic's x-api-key on /v1/messages) and a plain JSON body are answered straight from node:http, before Express builds its request and
// response objects and walks its router. Everything the Express route does happens here too, in
// the same order and with the same answers: request id, body limit and JSON parsing, NUL check,
// API key, rate-limit admission, the shared handler (gateway-call.ts), errors, the access log
// and the request metric. Any other call (a session cookie, a compressed or non-UTF-8 body,
// another media type, a query string, traces on) is left to Express, which serves it alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { bearerToken } from '../identity/authenticate.js';
import type { Logger } from '../logger.js';
import type { AppDeps } from '../runtime-deps.js';
import { tracing } from '../telemetry/tracing.js';
import { runGatewayHandler, type GatewayCall, type GatewayEndpoint } from './gateway-call.js';
import { apiKeyAuthenticator } from './middleware/auth.js';
import { findNul, nulError } from './middleware/body.js';
import { sendError } from './middleware/errors.js';
import { admissions } from './middleware/rate-limit.js';
import { logRequest, requestIdOf } from './middleware/request-context.js';
import { gatewayHandlers } from './routes/chat-completions.js';

/** Serves the request and returns true, or returns false and leaves it to Express. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/** `application/json`, optionally with charset UTF-8: what body parsing would read as UTF-8 JSON. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The fast path, or undefined when traces are on (the Express path carries the server span). */
export function gatewayFastPath(deps: AppDeps): FastPath | undefined {
  if (tracing()) return undefined;
  const endpoints = new Map<string, GatewayEndpoint>(Object.entries(gatewayHandlers(deps)));
  const authenticate = apiKeyAuthenticator(deps);
  const admissionOf = admissions(deps);
  const bodyLimit = deps.config.BODY_LIMIT_BYTES;

  async function serve(req: IncomingMessage, res: ServerResponse, path: string, endpoint: GatewayEndpoint, token: string): Promise<void> {
    const startedAt = performance.now();
    const requestId = requestIdOf(header(req, 'x-request-id'));
    res.setHeader('X-Request-Id', requestId);
    let log: Logger | undefined;
    const logOf = () => (log ??= deps.logger.child({ requestId }));
    const started = process.hrtime.bigint();
    let caller: Caller | undefined;
    res.on('finish', () => logRequest(deps.logger, logOf, started, { method: 'POST', route: path, path, status: res.statusCode, organizationId: caller?.organizationId }));
    try {
      const text = await readBody(req, bodyLimit);
      const body = parseJson(text, req);
      // JSON cannot hold a raw U+0000, only its escape: without one, the walk is skipped.
      if (text.includes('\\u0000')) rejectNul(body);
      caller = await authenticate(token);
      const call: GatewayCall = {
        body,
        caller,
        requestId,
        get log() {
          return logOf();
        },
        admission: admissionOf(caller, res),
        header: (name) => header(req, name),
        startedAt,
      };
      await runGatewayHandler(endpoint.handle, call, res);
    } catch (error) {
      sendError(res, error, logOf(), bodyLimit, endpoint.renderError);
    }
  }

  return (req, res) => {
    if (req.method !== 'POST') return false;
    const endpoint = endpoints.get(req.url ?? '');
    if (!endpoint) return false;
    const token = (endpoint.credential === 'x-api-key' ? header(req, 'x-api-key') : undefined) ?? bearerToken(header(req, 'authorization'));
    if (!token) return false;
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
    if (!PLAIN_JSON.test(req.headers['content-type'] ?? '')) return false;
    void serve(req, res, req.url!, endpoint, token);
    return true;
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body as UTF-8 text, refused past the limit (413) as body parsing would refuse it. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () => new AppError('payload_too_large', `Request body exceeds the limit of ${limit} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: AppError) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    req.on('data', onData);
    req.once('end', onEnd);
    const aborted = () => fail(new AppError('bad_request', 'Request aborted'));
    req.once('error', aborted);
    req.once('close', () => {
      if (!req.complete) aborted();
    });
  });
}

/**
 * Parsed as body parsing does: any JSON value, a leading byte-order mark ignored; an empty body
 * is `{}`, and a request without one (neither Content-Length nor Transfer-Encoding) undefined.
 */
function parseJson(text: string, req: IncomingMessage): unknown {
  if (text.length === 0) return req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined ? undefined : {};
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new AppError('bad_request', 'Request body is not valid JSON', { param: 'body' });
  }
}

function rejectNul(body: unknown): void {
  const where = findNul(body, '');
  if (where !== undefined) throw nulError(where || 'body');
}
