// The Anthropic Messages API request body (POST /v1/messages and /v1/messages/count_tokens),
// validated at the edge. Everything it takes reaches an Anthropic upstream (`cache_control` on
// system blocks, content blocks, tool results and tools; `metadata`, `service_tier`, a document's
// `citations`); docs/gateway-wire-formats.md lists what an OpenAI-style upstream cannot take.
import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { base64Schema, cacheControlSchema, formatParam, httpsUrlSchema, IMAGE_MEDIA_TYPES, innermost, refuseAttachmentsOutsideUserTurns } from '../chat.schemas.js';

const cacheControl = cacheControlSchema.optional();

const textBlock = z.object({ type: z.literal('text'), text: z.string({ error: 'text must be a string' }), cache_control: cacheControl });

const imageBlock = z.object({
  type: z.literal('image'),
  source: z.discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal('base64'),
        // The types Anthropic accepts; a fixed list, so no free text leaves in the data URL's header.
        media_type: z.enum(IMAGE_MEDIA_TYPES, { error: `media_type must be one of ${IMAGE_MEDIA_TYPES.join(', ')}` }),
        // Bytes, left alone by DLP: base64 and nothing else (chat.schemas.ts states the check's cost).
        data: base64Schema,
      }),
      // Fetched by the provider and read by DLP as text: https only, as an image_url.
      z.object({ type: z.literal('url'), url: httpsUrlSchema }),
    ],
    { error: 'image source type must be one of base64, url' },
  ),
  cache_control: cacheControl,
});

/**
 * A document: a PDF (base64) or plain text, as a user turn's block or in a tool result (a coding
 * agent's file read). Documents by URL or from content blocks are refused, naming the source type:
 * an OpenAI-style upstream could take neither.
 */
const documentBlock = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('base64'), media_type: z.literal('application/pdf', { error: 'media_type must be application/pdf' }), data: base64Schema }),
      z.object({ type: z.literal('text'), media_type: z.literal('text/plain', { error: 'media_type must be text/plain' }), data: z.string() }),
    ],
    { error: 'document source type must be one of base64 (a PDF), text (send a document by URL or as content blocks as one of these)' },
  ),
  title: z.string({ error: 'title must be a string' }).nullable().optional(),
  context: z.string({ error: 'context must be a string' }).nullable().optional(),
  citations: z.object({ enabled: z.boolean({ error: 'citations.enabled must be a boolean' }).optional() }, { error: 'citations must be an object' }).optional(),
  cache_control: cacheControl,
});

const toolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string({ error: 'id is required' }).min(1, 'id is required'),
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  input: z.unknown(),
  cache_control: cacheControl,
});

const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string({ error: 'tool_use_id is required' }).min(1, 'tool_use_id is required'),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock], { error: 'tool_result content blocks must be text, image or document' }))]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});

/**
 * An earlier answer's extended thinking, as a client sends its history back. Passed on, unchanged
 * and first in its turn, to an Anthropic upstream when the request thinks (Anthropic requires the
 * last assistant turn's thinking back in a tool loop, and checks its signature); left out
 * otherwise, as Anthropic itself leaves earlier turns' thinking out of the context.
 */
const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string({ error: 'thinking must be a string' }), signature: z.string().optional() });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string({ error: 'data must be a string' }) });

export const contentBlockSchema = z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock], {
  error: 'content block type must be one of text, image, document, tool_use, tool_result, thinking, redacted_thinking',
});

const MESSAGES_ATTACHMENTS: ReadonlySet<string> = new Set(['image', 'document']);
/** The turn each block type belongs to, where it belongs to one only. */
const TURN_OF_BLOCK: Readonly<Record<string, 'user' | 'assistant'>> = { tool_use: 'assistant', thinking: 'assistant', redacted_thinking: 'assistant', tool_result: 'user' };

const messageSchema = z
  .object({
    role: z.enum(['user', 'assistant'], { error: 'role must be one of user, assistant' }),
    content: z.union([z.string(), z.array(contentBlockSchema).min(1, 'content must not be an empty array')], {
      error: (issue) => (Array.isArray(issue.input) ? undefined : 'content must be a string or an array of content blocks'),
    }),
  })
  .superRefine((message, ctx) => {
    refuseAttachmentsOutsideUserTurns(message.role, message.content, MESSAGES_ATTACHMENTS, ctx);
    if (typeof message.content === 'string') return;
    // A block in the other side's turn is refused, as Anthropic refuses it, rather than dropped on
    // the way upstream: a tool's result the model never sees, or a call it never made.
    message.content.forEach((block, index) => {
      const turn = TURN_OF_BLOCK[block.type];
      if (turn !== undefined && turn !== message.role) ctx.addIssue({ code: 'custom', path: ['content', index, 'type'], message: `${block.type} blocks belong to ${turn} turns` });
    });
  });

const toolSchema = z.object({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown(), { error: 'input_schema must be a JSON schema object' }),
  cache_control: cacheControl,
  type: z.literal('custom', { error: 'only custom (client) tools are supported' }).optional(),
});

const toolChoiceSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
    z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
    z.object({ type: z.literal('none') }),
    z.object({ type: z.literal('tool'), name: z.string().min(1, 'name is required'), disable_parallel_tool_use: z.boolean().optional() }),
  ],
  { error: 'tool_choice type must be one of auto, any, none, tool' },
);

const countTokensSchema = z.object({
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  messages: z.array(messageSchema, { error: 'messages is required' }).min(1, 'messages must not be empty'),
  system: z.union([z.string(), z.array(textBlock)], { error: 'system must be a string or an array of text blocks' }).optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
});

export const messagesRequestSchema = countTokensSchema.extend({
  max_tokens: z.number({ error: 'max_tokens is required' }).int('max_tokens must be a positive integer').positive('max_tokens must be a positive integer'),
  stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
  stop_sequences: z.array(z.string(), { error: 'stop_sequences must be an array of strings' }).optional(),
  temperature: z.number({ error: 'temperature must be a number' }).min(0, 'temperature must be between 0 and 1').max(1, 'temperature must be between 0 and 1').optional(),
  top_p: z.number({ error: 'top_p must be a number' }).min(0, 'top_p must be between 0 and 1').max(1, 'top_p must be between 0 and 1').optional(),
  top_k: z.number({ error: 'top_k must be a positive integer' }).int('top_k must be a positive integer').positive('top_k must be a positive integer').optional(),
  metadata: z.object({ user_id: z.string({ error: 'metadata.user_id must be a string' }).nullable().optional() }).optional(),
  service_tier: z.enum(['auto', 'standard_only'], { error: 'service_tier must be auto or standard_only' }).optional(),
  /** Extended thinking: a budget of tokens, part of max_tokens (an Anthropic upstream thinks; others answer without). */
  thinking: z
    .discriminatedUnion(
      'type',
      [
        z.object({
          type: z.literal('enabled'),
          budget_tokens: z.number({ error: 'budget_tokens is required' }).int('budget_tokens must be an integer').min(1024, 'budget_tokens must be at least 1024'),
        }),
        z.object({ type: z.literal('disabled') }),
      ],
      { error: 'thinking type must be one of enabled, disabled' },
    )
    .optional(),
});

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type CountTokensRequest = z.infer<typeof countTokensSchema>;
export type MessagesContentBlock = z.infer<typeof contentBlockSchema>;

export function parseMessagesBody(body: unknown): MessagesRequest {
  const request = parseWith(messagesRequestSchema, body);
  // Thinking is part of the output: Anthropic asks for room to answer after it.
  if (request.thinking?.type === 'enabled' && request.thinking.budget_tokens >= request.max_tokens) {
    throw badRequest('thinking.budget_tokens: must be less than max_tokens', 'thinking.budget_tokens');
  }
  return request;
}

export function parseCountTokensBody(body: unknown): CountTokensRequest {
  return parseWith(countTokensSchema, body);
}

/** Parses or throws 400 bad_request naming the first bad field (`messages[0].content[1].type`). */
export function parseWith<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object', 'body');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = innermost(parsed.error.issues[0]!);
  const param = formatParam(issue.path) || 'body';
  throw badRequest(`${param}: ${issue.message}`, param);
}
