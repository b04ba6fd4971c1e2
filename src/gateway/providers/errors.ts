// The classification shared by HTTP providers: 408, 409 (Anthropic overload), 429 and 5xx are
// transient and move to the next target; everything else is the caller's or the config's fault.
import type { ProviderErrorInfo } from './types.js';

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
