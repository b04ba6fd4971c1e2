// The chat completions request body, validated at the edge. Fields outside the spec that OpenAI
// clients commonly send (n, user, stop, penalties...) are accepted and ignored; `tools`,
// `tool_choice` and `stream_options` pass through.
import { z } from 'zod';
import { badRequest } from '../errors.js';
import type { ChatCompletionRequest } from './types.js';

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool'], { error: 'role must be one of system, user, assistant, tool' }),
    content: z.string({ error: 'content must be a string' }).nullable().optional(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    tool_call_id: z.string().optional(),
  })
  .superRefine((message, ctx) => {
    // Only an assistant turn that calls tools may go without text.
    const mayOmit = message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0;
    if ((message.content === undefined || message.content === null) && !mayOmit) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'content must be a string' });
    }
    if (message.role === 'tool' && !message.tool_call_id) {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'tool messages need tool_call_id' });
    }
  });

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const chatCompletionRequestSchema = z.object({
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  messages: z.array(messageSchema, { error: 'messages is required' }).min(1, 'messages must not be empty'),
  stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
  max_tokens: z.number({ error: 'max_tokens must be a positive integer' }).int('max_tokens must be a positive integer').positive('max_tokens must be a positive integer').optional(),
  /** OpenAI's newer name for max_tokens; wins when both are sent. */
  max_completion_tokens: z
    .number({ error: 'max_completion_tokens must be a positive integer' })
    .int('max_completion_tokens must be a positive integer')
    .positive('max_completion_tokens must be a positive integer')
    .nullable()
    .optional(),
  temperature: z.number({ error: 'temperature must be a number' }).min(0, 'temperature must be between 0 and 2').max(2, 'temperature must be between 0 and 2').optional(),
  top_p: z.number({ error: 'top_p must be a number' }).min(0, 'top_p must be between 0 and 1').max(1, 'top_p must be between 0 and 1').optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: z
    .union([z.enum(['auto', 'none', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })])
    .optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
});

export interface ParsedChatBody {
  request: ChatCompletionRequest;
  /** stream_options.include_usage: end the stream with a usage chunk. */
  includeUsage: boolean;
}

/** Parses the body or throws 400 bad_request naming the first bad field (e.g. `messages[0].role`). */
export function parseChatCompletionBody(body: unknown): ParsedChatBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object', 'body');
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(issue.message, formatParam(issue.path));
  }
  const { stream_options: streamOptions, max_completion_tokens: maxCompletionTokens, ...request } = parsed.data;
  // One output bound from here on: bounded by the model's limit, reserved against the budget and
  // sent upstream in the field each provider expects (see router.effectiveMaxTokens).
  const maxTokens = maxCompletionTokens ?? request.max_tokens;
  return {
    request: {
      ...request,
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      messages: request.messages.map((m) => ({ ...m, content: m.content ?? null })),
    },
    includeUsage: streamOptions?.include_usage === true,
  };
}

function formatParam(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : out ? `${out}.${String(segment)}` : String(segment)), '');
}
