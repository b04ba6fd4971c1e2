// Builds the OpenAPI 3.1 document from the route registry: request schemas are the zod schemas
// the routes parse with (converted with z.toJSONSchema, draft 2020-12 as OpenAPI 3.1 uses, on
// their input side so defaults read as optional), responses are the view schemas of
// responses.ts, and every operation lists its error statuses with the codes each may carry.
import { z } from 'zod';
import { AppError, ERROR_MEANING, ERROR_STATUS, type ErrorCode } from '../../errors.js';
import { toAnthropicError } from '../../gateway/wire/messages.js';
import { approvalOperations } from './operations.approvals.js';
import { automationOperations } from './operations.automations.js';
import { codecOperations } from './operations.codec.js';
import { gatewayOperations } from './operations.gateway.js';
import { wireOperations } from './operations.wire.js';
import { platformOperations } from './operations.platform.js';
import { workspaceOperations } from './operations.workspace.js';
import { mcpOperations } from './operations.mcp.js';
import { consoleOperations } from './operations.console.js';
import { requestRecordOperations } from './operations.requests.js';
import { apiSchemas, type Operation } from './registry.js';

/** Every endpoint of the API, in the order the reference shows them. */
export const apiOperations: Operation[] = [...platformOperations, ...gatewayOperations, ...wireOperations, ...automationOperations, ...approvalOperations, ...workspaceOperations, ...codecOperations, ...mcpOperations, ...consoleOperations, ...requestRecordOperations];

export const errorBody = z
  .object({
    error: z
      .object({
        code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
        message: z.string(),
        type: z.string().describe('OpenAI error type, e.g. invalid_request_error'),
        param: z.string().nullable().describe('The request field at fault, e.g. messages[0].role'),
      })
      .catchall(z.unknown()),
  })
  .register(apiSchemas, { id: 'Error' });

export const anthropicErrorBody = z
  .object({
    type: z.literal('error'),
    error: z.object({ type: z.string().describe("Anthropic's error type, e.g. authentication_error"), message: z.string() }),
  })
  .register(apiSchemas, { id: 'AnthropicError' });

for (const operation of apiOperations) {
  if (operation.body && !apiSchemas.has(operation.body.schema)) apiSchemas.add(operation.body.schema, { id: operation.body.id });
}

const BODY_METHODS = new Set(['post', 'put', 'delete']);

/** The error codes an operation may answer: its own plus those every endpoint of its kind shares. */
export function errorCodesOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['internal_error', ...operation.errors]);
  // Every POST/PUT/DELETE passes the JSON body middleware, whatever the route reads.
  if (BODY_METHODS.has(operation.method)) ['bad_request', 'payload_too_large', 'unsupported_media_type'].forEach((c) => codes.add(c as ErrorCode));
  if (operation.body || operation.query || operation.pathParams) codes.add('bad_request');
  if (operation.auth === 'caller') {
    codes.add('unauthorized');
    codes.add('rate_limited');
    // A role, or a cookie-authenticated unsafe request from a foreign origin.
    if (operation.role || operation.method !== 'get') codes.add('forbidden');
  }
  return [...codes];
}

const toSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

/** Drops `$schema` and `$id`: the document's dialect is OpenAPI 3.1's, components are named by their key. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function schemaOrRef(schema: z.ZodType): Record<string, unknown> {
  const id = apiSchemas.get(schema)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : withoutDialect(toSchema(schema));
}

function parameters(operation: Operation): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [name, schema] of Object.entries(operation.pathParams ?? {})) {
    const json = withoutDialect(toSchema(schema));
    out.push({ name, in: 'path', required: true, description: json.description, schema: json });
  }
  if (operation.query) {
    const json = toSchema(operation.query) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: 'query', required: json.required?.includes(name) ?? false, description: schema.description, schema });
    }
  }
  for (const [name, header] of Object.entries(operation.headers ?? {})) {
    out.push({ name, in: 'header', required: false, description: header.description, schema: withoutDialect(toSchema(header.schema)) });
  }
  return out;
}

/** Anthropic's shape: grouped by Anthropic's status, each listing its error types and the codes behind them. */
function anthropicErrorResponses(operation: Operation): Record<string, unknown> {
  const byStatus = new Map<number, { types: Set<string>; codes: ErrorCode[] }>();
  for (const code of errorCodesOf(operation)) {
    const { status, body } = toAnthropicError(new AppError(code, ''));
    const entry = byStatus.get(status) ?? { types: new Set<string>(), codes: [] };
    entry.types.add(body.error.type);
    entry.codes.push(code);
    byStatus.set(status, entry);
  }
  const out: Record<string, unknown> = {};
  for (const [status, { types, codes }] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `Error (Anthropic's shape): ${codes.map((code) => ERROR_MEANING[code]).join('; ')}`,
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/AnthropicError' }, { type: 'object', properties: { error: { type: 'object', properties: { type: { enum: [...types] } } } } }] },
        },
      },
    };
  }
  return out;
}

function errorResponses(operation: Operation): Record<string, unknown> {
  if (operation.errorShape === 'anthropic') return anthropicErrorResponses(operation);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = status === 429 || status === 503 ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'string' } } } : undefined;
    out[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\` (${ERROR_MEANING[code]})`).join('; ')}`,
      ...(headers ? { headers } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
          },
        },
      },
    };
  }
  return out;
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the one-minute window', schema: { type: 'string' } },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'string' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'string' } },
};

function successResponses(operation: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const headers: Record<string, unknown> = operation.auth === 'caller' ? { ...RATE_LIMIT_HEADERS } : {};
    for (const [name, description] of Object.entries(response.headers ?? {})) headers[name] = { description, schema: { type: 'string' } };
    const content: Record<string, unknown> = {};
    if (response.schema) content[response.contentType ?? 'application/json'] = { schema: schemaOrRef(response.schema) };
    if (response.stream) content['text/event-stream'] = { schema: { type: 'string', description: response.stream } };
    if (operation.operationId === 'createChatCompletion') {
      content['text/event-stream'] = {
        schema: {
          type: 'string',
          description:
            'With `stream: true`: server-sent events, `data: {chat.completion.chunk}` lines ending with `data: [DONE]`; a failure after the first chunk is a `data: {"error": ...}` event before [DONE].',
        },
      };
    }
    out[status] = {
      description: response.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  return out;
}

function security(operation: Operation): Record<string, string[]>[] {
  switch (operation.auth) {
    case 'caller':
      return operation.errorShape === 'anthropic' ? [{ apiKey: [] }, { anthropicApiKey: [] }, { sessionCookie: [] }] : [{ apiKey: [] }, { sessionCookie: [] }];
    case 'metricsToken':
      return [{}, { metricsToken: [] }];
    default:
      return [];
  }
}

function operationObject(operation: Operation): Record<string, unknown> {
  const role = operation.role ? `\n\nRequires the ${operation.role} role${operation.role === 'admin' ? ' (or owner)' : ''}.` : '';
  const description = `${operation.description ?? ''}${role}`.trim();
  const params = parameters(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(description ? { description } : {}),
    security: security(operation),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: operation.body.required,
            ...(operation.body.description ? { description: operation.body.description } : {}),
            content: { 'application/json': { schema: schemaOrRef(operation.body.schema), example: operation.body.example } },
          },
        }
      : {}),
    responses: { ...successResponses(operation), ...errorResponses(operation) },
  };
}

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of the API (built once; it depends on no configuration). */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const { schemas } = z.toJSONSchema(apiSchemas, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components = Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema as Record<string, unknown>)]));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of apiOperations) (paths[operation.path] ??= {})[operation.method] = operationObject(operation);
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'AI Workspace and Gateway API',
      version: '1',
      description:
        'An organization\'s AI workspace and OpenAI-compatible chat gateway. Every error body is OpenAI-shaped, `{"error": {"code", "message", "type", "param"}}`, except on the Anthropic Messages routes (`/v1/messages...`), which answer in Anthropic\'s shape; every response carries `X-Request-Id`. Two 503 codes mean different things: `provider_unavailable` (the upstream AI providers of a chat completion are all unavailable) and `service_unavailable` (a dependency of this service itself: database, Redis, Temporal, SMTP, the OIDC identity provider). Authenticate with `Authorization: Bearer svc_live_...` (an API key) or the `svc_session` cookie.',
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(apiOperations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `svc_live_` followed by 40 characters' },
        anthropicApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key, as Anthropic clients send it (the Messages routes only)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'svc_session', description: 'Browser session; unsafe methods need an allowed Origin' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when it is set' },
      },
    },
  };
  return cached;
}
