// The chat completions request body, validated at the edge. Fields outside the spec that OpenAI
// clients commonly send (n, user, stop, penalties...) are accepted and ignored; `tools`,
// `tool_choice`, `response_format`, `stream_options`, `prompt_cache_key` and
// `prompt_cache_retention` pass through, and `cache_control` on content parts, messages and tools
// (the OpenRouter/LiteLLM convention) reaches an Anthropic upstream's blocks.
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { REASONING_EFFORTS, type ChatCompletionRequest } from './types.js';

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * Attachments, as every wire format takes them: an image is an `https:` URL the provider fetches
 * or the image itself as `data:image/(png|jpeg|gif|webp);base64,<base64>`; a file is a PDF as
 * `data:application/pdf;base64,<base64>`. Nothing else: DLP reads an https URL as text and leaves
 * an image's or a PDF's bytes alone, so nothing may fall between the two, and a data: URL's media
 * type becomes Anthropic's `media_type`. Cost: linear in the value and bounded by BODY_LIMIT_BYTES;
 * the base64 check is one search for a single character class (nothing to backtrack; about 1 ms
 * a MiB), an https URL one search likewise and one WHATWG URL parse.
 */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,/;
const PDF_DATA_URL_PREFIX = 'data:application/pdf;base64,';
/** A character outside standard base64's alphabet. */
const NOT_BASE64 = /[^A-Za-z0-9+/]/;
/**
 * What a URL parser could read two ways, or a client would have encoded: a character outside
 * printable ASCII (`!`-`~`) and below U+00A0 (control characters, space, DEL), other whitespace,
 * a backslash.
 */
const AMBIGUOUS_IN_URL = /[^!-~\u00a0-\uffff]|[\s\\]/;
const HTTPS_SCHEME = /^https:\/\//i;
/** The patterns above, for the ReDoS check of chat.schemas.test.ts. */
export const ATTACHMENT_PATTERNS: readonly RegExp[] = [IMAGE_DATA_URL, NOT_BASE64, AMBIGUOUS_IN_URL, HTTPS_SCHEME];

/** Whether `text` from `from` on is standard base64: not empty, a multiple of 4 long, the alphabet, at most two `=` at the end. */
export function isBase64(text: string, from = 0): boolean {
  const length = text.length - from;
  if (length <= 0 || length % 4 !== 0) return false;
  let end = text.length;
  if (text.charCodeAt(end - 1) === 61) end--;
  if (text.charCodeAt(end - 1) === 61) end--;
  return !NOT_BASE64.test(text.slice(from, end));
}

/** Whether `url` is an image's bytes (a data: URL of one of the four image types), not a URL anything fetches. */
export function isImageDataUrl(url: string): boolean {
  return IMAGE_DATA_URL.test(url);
}

/** Why `url` is not an image URL the gateway takes (an https URL, or a PNG, JPEG, GIF or WebP image as a base64 data: URL); undefined when it is one. */
export function imageUrlProblem(url: string): string | undefined {
  if (!url.startsWith('data:')) return httpsUrlProblem(url, 'must be an https: URL or a data:image/...;base64, URL');
  const header = IMAGE_DATA_URL.exec(url);
  if (!header) return 'must be a data: URL of an image/png, image/jpeg, image/gif or image/webp image in base64 (data:image/png;base64,...)';
  return isBase64(url, header[0].length) ? undefined : "must hold the image as valid base64 after 'base64,'";
}

/** Why `url` is not an https URL one parser reads one way; undefined when it is one. */
export function httpsUrlProblem(url: string, notHttps = 'must be an https: URL'): string | undefined {
  if (!HTTPS_SCHEME.test(url)) return notHttps;
  if (AMBIGUOUS_IN_URL.test(url) || !URL.canParse(url)) return 'must be a valid https: URL (without whitespace, control characters or backslashes)';
  return undefined;
}

/** An image URL field (`field` names it in the message); `notString` is the message for a missing or non-string value. */
export function imageUrlSchema(field: string, notString = `${field} must be a string`) {
  return z.string({ error: notString }).superRefine((url, ctx) => {
    const problem = imageUrlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
  });
}

/** An https URL field (a Messages image's `source.url`). */
export const httpsUrlSchema = z.string({ error: 'url must be a string' }).superRefine((url, ctx) => {
  const problem = httpsUrlProblem(url);
  if (problem) ctx.addIssue({ code: 'custom', message: `url ${problem}` });
});

/** A base64 field (a Messages image's or PDF's `source.data`). */
export const base64Schema = z.string({ error: 'data must be a string' }).refine((data) => isBase64(data), 'data must be valid base64');

const PDF_DATA_URL = 'file_data must be a PDF as a data: URL (data:application/pdf;base64,...); file ids and URLs are not supported';
/** A file part's `file_data` (chat completions, the Responses API): a PDF as a data: URL; the gateway has no files API. */
export const pdfDataUrl = z.string({ error: PDF_DATA_URL }).superRefine((data, ctx) => {
  if (!data.startsWith(PDF_DATA_URL_PREFIX)) ctx.addIssue({ code: 'custom', message: PDF_DATA_URL });
  else if (!isBase64(data, PDF_DATA_URL_PREFIX.length)) ctx.addIssue({ code: 'custom', message: "file_data must hold the PDF as valid base64 after 'base64,'" });
});

/**
 * Images and files are a user's to send, or a tool's in its result. In a system, developer or
 * assistant turn they would be lost on the way upstream (Anthropic takes a text system prompt and
 * no images from the assistant), so each wire format's schema refuses them there, naming the part.
 */
export function refuseAttachmentsOutsideUserTurns(role: string, content: unknown, attachments: ReadonlySet<string>, ctx: z.RefinementCtx): void {
  if (role === 'user' || role === 'tool' || !Array.isArray(content)) return;
  content.forEach((part: { type: string }, index) => {
    if (attachments.has(part.type)) ctx.addIssue({ code: 'custom', path: ['content', index], message: `${part.type} is taken in user messages and tool results only, not in ${role} messages` });
  });
}

const CHAT_ATTACHMENTS: ReadonlySet<string> = new Set(['image_url', 'file']);

/**
 * A prompt-cache breakpoint, as Anthropic takes it (on the Messages API's blocks and tools; on chat
 * completions' content parts, messages and tools by the OpenRouter/LiteLLM convention). Checked
 * here, since an Anthropic upstream would refuse anything else.
 */
export const cacheControlSchema = z.object(
  {
    type: z.literal('ephemeral', { error: 'cache_control.type must be ephemeral' }),
    ttl: z.enum(['5m', '1h'], { error: 'cache_control.ttl must be 5m or 1h' }).optional(),
  },
  { error: 'cache_control must be an object' },
);

const contentPartSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text'), text: z.string({ error: 'text must be a string' }), cache_control: cacheControlSchema.optional() }),
    z.object({
      type: z.literal('image_url'),
      image_url: z.object({ url: imageUrlSchema('url'), detail: z.enum(['auto', 'low', 'high']).optional() }, { error: 'image_url must be an object' }),
      cache_control: cacheControlSchema.optional(),
    }),
    z.object({
      type: z.literal('file'),
      file: z.object({ file_data: pdfDataUrl, filename: z.string({ error: 'filename must be a string' }).optional() }, { error: 'file must be an object' }),
      cache_control: cacheControlSchema.optional(),
    }),
  ],
  { error: 'content part type must be one of text, image_url, file' },
);

const messageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool'], { error: 'role must be one of system, user, assistant, tool' }),
    content: z
      .union([z.string(), z.array(contentPartSchema).min(1, 'content must not be an empty array')], {
        error: (issue) => (Array.isArray(issue.input) ? undefined : 'content must be a string or an array of content parts'),
      })
      .nullable()
      .optional(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    tool_call_id: z.string().optional(),
    /** LiteLLM's message-level breakpoint: at the end of the message. */
    cache_control: cacheControlSchema.optional(),
  })
  .superRefine((message, ctx) => {
    // Only an assistant turn that calls tools may go without text.
    const mayOmit = message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0;
    if ((message.content === undefined || message.content === null) && !mayOmit) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'content must be a string or an array of content parts' });
    }
    if (message.role === 'tool' && !message.tool_call_id) {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'tool messages need tool_call_id' });
    }
    refuseAttachmentsOutsideUserTurns(message.role, message.content, CHAT_ATTACHMENTS, ctx);
  });

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
  cache_control: cacheControlSchema.optional(),
});

/**
 * A JSON schema format's fields, as chat completions' `response_format.json_schema` and the
 * Responses API's `text.format` take them (the name doubles as an Anthropic tool's name).
 */
export const jsonSchemaFormatFields = {
  name: z.string({ error: 'name is required' }).regex(/^[a-zA-Z0-9_-]{1,64}$/, 'name must be 1-64 letters, digits, _ or -'),
  description: z.string().optional(),
  schema: z.record(z.string(), z.unknown(), { error: 'schema must be a JSON schema object' }),
  strict: z.boolean().nullable().optional(),
};

/** Structured output: OpenAI-compatible upstreams get it as is, Anthropic ones as a forced tool. */
const responseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      // Optional here, as OpenAI's chat completions have it.
      json_schema: z.object({ ...jsonSchemaFormatFields, schema: jsonSchemaFormatFields.schema.optional() }, { error: 'json_schema must be an object' }),
    }),
  ],
  { error: 'response_format type must be one of text, json_object, json_schema' },
);

/** OpenAI's prompt-cache fields (chat completions and the Responses API): sent on to OpenAI-style upstreams. */
export const promptCacheFields = {
  prompt_cache_key: z.string({ error: 'prompt_cache_key must be a string' }).max(1024, 'prompt_cache_key must be at most 1024 characters').optional(),
  prompt_cache_retention: z.enum(['in_memory', '24h'], { error: 'prompt_cache_retention must be in_memory or 24h' }).nullable().optional(),
};

/** OpenAI's reasoning effort (chat completions' `reasoning_effort`, the Responses API's `reasoning.effort`). */
export function reasoningEffortSchema(field: string) {
  return z.enum(REASONING_EFFORTS, { error: `${field} must be one of ${REASONING_EFFORTS.join(', ')}` });
}

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
  response_format: responseFormatSchema.optional(),
  /** How much a reasoning model thinks first: sent on to OpenAI-style upstreams, a thinking budget for Anthropic ones. */
  reasoning_effort: reasoningEffortSchema('reasoning_effort').nullable().optional(),
  ...promptCacheFields,
});

export interface ParsedChatBody {
  request: ChatCompletionRequest;
  /** stream_options.include_usage: end the stream with a usage chunk. */
  includeUsage: boolean;
}

/** Parses the body or throws 400 bad_request naming the first bad field (e.g. `messages[0].role`). */
export function parseChatCompletionBody(body: unknown): ParsedChatBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object', 'body');
  const { stream_options: streamOptions, max_completion_tokens: maxCompletionTokens, reasoning_effort: effort, prompt_cache_retention: retention, ...request } =
    parseCommonChatBody(body as Record<string, unknown>) ?? parseWithSchema(body);
  // One output bound from here on: bounded by the model's limit, reserved against the budget and
  // sent upstream in the field each provider expects (see router.effectiveMaxTokens).
  const maxTokens = maxCompletionTokens ?? request.max_tokens;
  return {
    request: {
      ...request,
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(effort ? { reasoning: { effort } } : {}),
      ...(retention ? { prompt_cache_retention: retention } : {}),
      messages: request.messages.map((m) => ({ ...m, content: m.content ?? null })),
    },
    includeUsage: streamOptions?.include_usage === true,
  };
}

type ChatBody = z.infer<typeof chatCompletionRequestSchema>;

function parseWithSchema(body: unknown): ChatBody {
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = innermost(parsed.error.issues[0]!);
  throw badRequest(issue.message, formatParam(issue.path));
}

const COMMON_ROLES = new Set(['system', 'user', 'assistant']);

/**
 * The common body (text messages from system, user or assistant; the usual sampling fields; no
 * tools) checked by hand, with the schema's output: zod's walk over it was ~1.4% of the gateway's
 * CPU per request. Undefined when anything is outside that shape or invalid: the schema then
 * decides, and words the error. Exported for the test that holds it to the schema's answers.
 */
export function parseCommonChatBody(body: Record<string, unknown>): ChatBody | undefined {
  const { model, messages, stream, max_tokens: maxTokens, max_completion_tokens: maxCompletionTokens, temperature, top_p: topP } = body;
  if (typeof model !== 'string' || model.length === 0) return undefined;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  if (body.tools !== undefined || body.tool_choice !== undefined || body.response_format !== undefined || body.reasoning_effort !== undefined) return undefined;
  if (body.prompt_cache_key !== undefined || body.prompt_cache_retention !== undefined) return undefined;
  if (stream !== undefined && typeof stream !== 'boolean') return undefined;
  if (maxTokens !== undefined && !isPositiveInteger(maxTokens)) return undefined;
  if (maxCompletionTokens !== undefined && maxCompletionTokens !== null && !isPositiveInteger(maxCompletionTokens)) return undefined;
  if (temperature !== undefined && !isNumberWithin(temperature, 0, 2)) return undefined;
  if (topP !== undefined && !isNumberWithin(topP, 0, 1)) return undefined;
  const streamOptions = body.stream_options;
  let parsedStreamOptions: { include_usage?: boolean } | null | undefined;
  if (streamOptions !== undefined && streamOptions !== null) {
    if (typeof streamOptions !== 'object' || Array.isArray(streamOptions)) return undefined;
    const includeUsage = (streamOptions as Record<string, unknown>).include_usage;
    if (includeUsage !== undefined && typeof includeUsage !== 'boolean') return undefined;
    parsedStreamOptions = includeUsage === undefined ? {} : { include_usage: includeUsage };
  } else {
    parsedStreamOptions = streamOptions;
  }
  const parsedMessages: ChatBody['messages'] = [];
  for (const message of messages) {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
    const { role, content, name } = message as Record<string, unknown>;
    if (typeof role !== 'string' || !COMMON_ROLES.has(role) || typeof content !== 'string') return undefined;
    const { tool_calls: toolCalls, tool_call_id: toolCallId, cache_control: cacheControl } = message as Record<string, unknown>;
    if (toolCalls !== undefined || toolCallId !== undefined || cacheControl !== undefined) return undefined;
    if (name !== undefined && typeof name !== 'string') return undefined;
    parsedMessages.push(name === undefined ? { role: role as 'system', content } : { role: role as 'system', content, name });
  }
  // The schema's output: its keys in its order, only those the body has, nothing else.
  const parsed: ChatBody = { model, messages: parsedMessages };
  if (stream !== undefined) parsed.stream = stream;
  if (maxTokens !== undefined) parsed.max_tokens = maxTokens as number;
  if (maxCompletionTokens !== undefined) parsed.max_completion_tokens = maxCompletionTokens as number | null;
  if (temperature !== undefined) parsed.temperature = temperature as number;
  if (topP !== undefined) parsed.top_p = topP as number;
  if (parsedStreamOptions !== undefined) parsed.stream_options = parsedStreamOptions;
  return parsed;
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isNumberWithin(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && value >= min && value <= max;
}

/** For a union (string or parts array), the issue of the branch that got furthest into the value, with its full path. */
export function innermost(issue: z.core.$ZodIssue): { message: string; path: PropertyKey[] } {
  if (issue.code === 'invalid_union') {
    // Each branch's own innermost issue first (a branch may hold a union too): the deepest names
    // the field of the branch that matched furthest (a function_call_output item's bad output
    // part, not the message branch's `type`); ties keep the branches' order.
    const deepest = issue.errors
      .map((branch) => branch[0])
      .filter((first) => first !== undefined && first.path.length > 0)
      .map((first) => innermost({ ...first!, path: [...issue.path, ...first!.path] } as z.core.$ZodIssue))
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest) return deepest;
  }
  return issue;
}

export function formatParam(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : out ? `${out}.${String(segment)}` : String(segment)), '');
}
