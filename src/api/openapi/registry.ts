// The route registry the OpenAPI document is built from: one entry per endpoint, naming the
// zod schemas its route parses (imported from the feature's *.schemas.ts, the very objects the
// route validates with) and the responses and error codes it answers. The parity test
// (test/api/openapi.test.ts) fails when an Express route has no entry here, or the reverse.
import { z } from 'zod';
import type { ErrorCode } from '../../errors.js';

/** Named schemas that become `components/schemas` (responses and request bodies). */
export const apiSchemas = z.registry<{ id: string }>();

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may call: `caller` is an API key or a session (then rate-limited); `none` is public;
 * `metricsToken` is open unless METRICS_TOKEN is set; `webhookUrl` is the URL id itself.
 */
export type Authentication = 'none' | 'caller' | 'metricsToken' | 'webhookUrl';

export interface SuccessResponse {
  description: string;
  /** Absent for an empty body (204, redirects). */
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  headers?: Record<string, string>;
  /** The same status also answers as server-sent events (`stream: true`): what they are. */
  stream?: string;
}

export interface RequestBody {
  /** Component name of the body schema, e.g. CreateSkillRequest. */
  id: string;
  schema: z.ZodType;
  /** False when the endpoint also accepts no body at all. */
  required: boolean;
  description?: string;
  /** A realistic body: shown in the reference, and the seed the fuzz test mutates. */
  example: unknown;
}

export interface Operation {
  method: HttpMethod;
  /** OpenAPI path with `{param}` segments, including /v1 where the route has it. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Authentication;
  /** The least role the route requires (403 below it). */
  role?: 'admin' | 'owner';
  pathParams?: Record<string, z.ZodType>;
  /** The query object as the route parses it. */
  query?: z.ZodObject;
  headers?: Record<string, { schema: z.ZodType; description: string }>;
  body?: RequestBody;
  responses: Record<number, SuccessResponse>;
  /** Error codes particular to this endpoint; the ones every endpoint of its kind shares are added by the document builder. */
  errors: ErrorCode[];
  /** `anthropic`: errors take Anthropic's shape and statuses (the Messages routes), and `x-api-key` authenticates too. */
  errorShape?: 'anthropic';
}

/** `{id}` -> `:id`: the Express path of an OpenAPI path. */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
