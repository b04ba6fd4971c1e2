// A small HTTP client for tests: JSON in, status + headers + parsed body out.
export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this string as the body verbatim (for malformed-input tests). */
  raw?: string;
  /** `manual` to see a redirect instead of following it. */
  redirect?: 'follow' | 'manual';
}

export async function call<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body, redirect: options.redirect ?? 'follow' });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Waits for a condition with a deadline; never a fixed sleep. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false | null>, options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
  throw new Error(`Timed out waiting for ${options.what ?? 'condition'}${last ? `: ${(last as Error).message}` : ''}`);
}
