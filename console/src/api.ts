// The console's only way to the server: the public API under /v1, with the session cookie the
// sign-in set (same origin, credentials included). Typed by api-types.ts, generated from the
// OpenAPI document (console/scripts/generate-api-types.ts): a path or a field the API does not
// have does not compile.
import type { paths } from './api-types';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = paths[P][M] extends infer O ? (O extends { responses: unknown } ? O : never) : never;

/** The 2xx JSON body of an operation. */
export type Ok<P extends keyof paths, M extends Method> =
  Op<P, M>['responses'] extends infer R
    ? R extends { 200: { content: { 'application/json': infer B } } }
      ? B
      : R extends { 201: { content: { 'application/json': infer B } } }
        ? B
        : undefined
    : never;

/** The JSON request body of an operation, when it has one. */
export type Body<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly param: string | undefined,
  ) {
    super(message);
  }
}

/** Substitutes `{id}` style path parameters. */
function fill(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
}

export async function api<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  options: { params?: Record<string, string>; query?: Record<string, string | number | undefined>; body?: Body<P, M> } = {},
): Promise<Ok<P, M>> {
  const url = new URL(fill(path as string, options.params), location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  const response = await fetch(url, {
    method: method.toUpperCase(),
    credentials: 'same-origin',
    headers: options.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  if (response.status === 204) return undefined as Ok<P, M>;
  const payload = (await response.json().catch(() => undefined)) as { error?: { message?: string; code?: string; param?: string } } | undefined;
  if (!response.ok) {
    const error = payload?.error;
    if (response.status === 401) window.dispatchEvent(new Event('console:signed-out'));
    throw new ApiError(response.status, error?.message ?? `HTTP ${response.status}`, error?.code, error?.param);
  }
  return payload as Ok<P, M>;
}
