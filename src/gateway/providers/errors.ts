// The classification shared by HTTP providers: 408, 409 (Anthropic overload), 429 and 5xx are
// transient and move to the next target; 400, 413 and 422 are the request's own fault (the client
// gets 400 with the upstream's message, bounded, and no other target is tried; a context-window
// error may still go to a bigger model); the rest (401/403: our credentials, 404: the config) is
// the gateway's and passes nothing of the upstream's body on.
import type { ProviderErrorInfo } from './types.js';

/** Statuses that say the request itself is wrong: any other target would refuse it too. */
const CLIENT_FAULT_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);
/** Longest upstream message passed on to the client (it describes the client's own request). */
export const CLIENT_MESSAGE_LIMIT = 512;
/** A `param` passed on looks like a field path, nothing else (`messages[0].content`, `tools.1.name`). */
const PARAM_PATTERN = /^[A-Za-z0-9_.[\]-]{1,128}$/;

/**
 * An upstream's error status and (the start of) its body, classified: the one function both HTTP
 * adapters use (OpenAI's `{error: {message, type, param, code}}` and Anthropic's `{type: "error",
 * error: {type, message}}` are read alike).
 */
export function classifyUpstreamError(status: number, body: string): ProviderErrorInfo {
  const info = classifyUpstreamStatus(status, 'The upstream provider');
  if (status === 401 || status === 403) return info;
  const type = upstreamErrorType(body);
  const typed = type ? { ...info, message: `${info.message}: ${type}` } : info;
  if (isContextLengthError(status, body)) return { ...typed, contextLengthExceeded: true, clientFault: true };
  if (!CLIENT_FAULT_STATUSES.has(status)) return typed;
  const upstream = upstreamClientMessage(body);
  return {
    ...typed,
    clientFault: true,
    ...(upstream.message ? { message: upstream.message } : {}),
    ...(upstream.param ? { param: upstream.param } : {}),
  };
}

export function classifyUpstreamStatus(status: number, providerName: string): ProviderErrorInfo {
  if (status === 429) return { retryable: true, message: `${providerName} rate limited the request (429)` };
  if (status === 408 || status === 409 || status === 529 || status >= 500) {
    return { retryable: true, message: `${providerName} is unavailable (${status})` };
  }
  if (status === 401 || status === 403) {
    return { retryable: false, message: `${providerName} rejected the gateway's credentials (${status})` };
  }
  return { retryable: false, message: `${providerName} returned an error (${status})` };
}

/**
 * Whether a 400 says the prompt is over the model's context window: OpenAI's
 * `context_length_exceeded` code, Anthropic's "prompt is too long" (or an input-plus-max_tokens
 * overflow), and the wording OpenAI-compatible servers (vLLM, LiteLLM) use. The body is only read, never passed on.
 */
export function isContextLengthError(status: number, body: string): boolean {
  if (status !== 400 && status !== 413) return false;
  return /context_length_exceeded|context length|context window|prompt is too long|maximum context|too many tokens|input length and `max_tokens` exceed/i.test(body.slice(0, 4096));
}

/** The upstream's own error type, when it is a short identifier: safe to pass on, unlike its message. */
export function upstreamErrorType(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; code?: unknown } };
    const candidate = parsed.error?.code ?? parsed.error?.type;
    return typeof candidate === 'string' && /^[a-z_]{1,64}$/.test(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message and param of a client-fault error body, made safe to show: control characters out,
 * whitespace collapsed, at most CLIENT_MESSAGE_LIMIT characters; a param only when it looks like a
 * field path.
 */
export function upstreamClientMessage(body: string): { message?: string; param?: string } {
  let error: { message?: unknown; param?: unknown } | undefined;
  try {
    error = (JSON.parse(body) as { error?: { message?: unknown; param?: unknown } } | null)?.error;
  } catch {
    return {};
  }
  const out: { message?: string; param?: string } = {};
  if (typeof error?.message === 'string') {
    const text = error.message.replace(/\p{Cc}+/gu, ' ').replace(/\s+/g, ' ').trim();
    if (text) out.message = text.length > CLIENT_MESSAGE_LIMIT ? `${text.slice(0, CLIENT_MESSAGE_LIMIT - 1)}…` : text;
  }
  if (typeof error?.param === 'string' && PARAM_PATTERN.test(error.param)) out.param = error.param;
  return out;
}
