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
