// One error hierarchy. Services throw AppError with a code; the API maps the code to a status
// through the single table below and renders the OpenAI-shaped body
// {"error": {"code", "message", "type", "param"}}.

export const ERROR_STATUS = {
  bad_request: 400,
  skill_not_publishable: 400,
  unauthorized: 401,
  budget_exceeded: 402,
  forbidden: 403,
  dlp_blocked: 403,
  model_not_allowed: 403,
  quota_exceeded: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  provider_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Whether a run step failing with `code` may pass when tried again (the one retry rule of agent
 * runs, src/agent-run/retry.ts): a server-side or upstream failure (5xx) may, and so may being
 * rate limited (429), which clears with time; any other client error (budget, DLP, permissions,
 * a bad request or model, a missing skill) fails the same way on every attempt.
 */
export function isRetryableCode(code: ErrorCode): boolean {
  return code === 'rate_limited' || ERROR_STATUS[code] >= 500;
}

/** The `type` field OpenAI clients read; grouped the way OpenAI groups its own errors. */
const ERROR_TYPE: Record<ErrorCode, string> = {
  bad_request: 'invalid_request_error',
  skill_not_publishable: 'invalid_request_error',
  unauthorized: 'authentication_error',
  budget_exceeded: 'insufficient_quota',
  forbidden: 'permission_error',
  dlp_blocked: 'permission_error',
  model_not_allowed: 'permission_error',
  quota_exceeded: 'insufficient_quota',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  conflict: 'conflict_error',
  gone: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  internal_error: 'server_error',
  provider_error: 'upstream_error',
  provider_unavailable: 'upstream_error',
  service_unavailable: 'server_error',
};

/**
 * What each code means, for the OpenAPI document. The two 503s are distinct on purpose:
 * `provider_unavailable` is about the upstream AI providers (chat completions: every target of
 * the model or tier failed or is circuit-open), `service_unavailable` about the service's own
 * dependencies (database, Redis, Temporal, SMTP, the OIDC identity provider). docs/DESIGN-NOTES.md.
 */
export const ERROR_MEANING: Record<ErrorCode, string> = {
  bad_request: 'invalid body, query or path value; `param` names the first bad field',
  skill_not_publishable: 'the skill is not public or has no version',
  unauthorized: 'missing, invalid or revoked API key or session',
  budget_exceeded: "the organization's monthly budget is spent",
  forbidden: "valid credentials, insufficient role (or a cookie request from a foreign origin)",
  dlp_blocked: 'the DLP policy blocked the content; names detector types, never the text',
  model_not_allowed: "the API key's model allow-list does not include the requested model",
  quota_exceeded: "one more of this resource would pass the organization's or user's quota; remove one first",
  not_found: 'no such resource visible to the caller (other organizations included)',
  method_not_allowed: 'the path exists, the method does not',
  conflict: 'the request conflicts with the current state',
  gone: 'the link has expired (a signed approval link past its request\'s expiry)',
  payload_too_large: 'the body is over the size limit',
  unsupported_media_type: 'the body is not JSON',
  rate_limited: 'too many requests; X-RateLimit-* and Retry-After say when to retry',
  internal_error: 'an unexpected failure (never a stack trace)',
  provider_error: "the upstream AI provider failed (an error after failover, the gateway's credentials refused, a malformed answer); an upstream's 400, 413 or 422 is the request's own fault and answers 400 bad_request with the upstream's message",
  provider_unavailable: 'every configured upstream AI provider for the model or tier is unavailable (unreachable, timed out, 5xx/429, or circuit open)',
  service_unavailable: "one of the service's own dependencies (database, Redis, Temporal, SMTP, the OIDC identity provider) is unavailable",
};

export interface AppErrorOptions {
  /** The request field at fault, e.g. `messages[0].role`. */
  param?: string | null;
  cause?: unknown;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
  /** Extra safe fields merged into the error object (never secrets or user content). */
  details?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly status: number;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(readonly code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }

  get type(): string {
    return ERROR_TYPE[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: { ...this.details, code: this.code, message: this.message, type: this.type, param: this.param },
    };
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; type: string; param: string | null; [key: string]: unknown };
}

export const badRequest = (message: string, param: string | null = null): AppError =>
  new AppError('bad_request', message, { param });

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

export const forbidden = (message = 'You do not have permission to perform this action'): AppError =>
  new AppError('forbidden', message);

export const unauthorized = (message = 'Missing or invalid API key or session'): AppError =>
  new AppError('unauthorized', message);
