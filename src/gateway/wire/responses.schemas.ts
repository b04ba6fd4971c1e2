// The OpenAI Responses API request body (POST /v1/responses), validated at the edge. Fields
// clients send that the gateway has no use for (`include`, `truncation`, `user`,
// `service_tier`...) are accepted and ignored; `prompt_cache_key` and `prompt_cache_retention`
// reach an OpenAI-style upstream.
import { z } from 'zod';
import { imageUrlSchema, jsonSchemaFormatFields, pdfDataUrl, promptCacheFields, reasoningEffortSchema, refuseAttachmentsOutsideUserTurns } from '../chat.schemas.js';
import { unsealReasoning } from '../reasoning.js';
import { parseWith } from './messages.schemas.js';

const inputText = z.object({ type: z.literal('input_text'), text: z.string({ error: 'text must be a string' }) });
const outputText = z.object({ type: z.literal('output_text'), text: z.string({ error: 'text must be a string' }) });
const refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: imageUrlSchema('image_url', 'image_url must be a URL (https or data:); file_id images are not supported'),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});
const inputFile = z.object({
  type: z.literal('input_file'),
  file_data: pdfDataUrl,
  filename: z.string({ error: 'filename must be a string' }).optional(),
});
const contentPart = z.discriminatedUnion('type', [inputText, outputText, refusal, inputImage, inputFile], {
  error: 'content part type must be one of input_text, output_text, refusal, input_image, input_file',
});

const RESPONSES_ATTACHMENTS: ReadonlySet<string> = new Set(['input_image', 'input_file']);

const messageItem = z
  .object({
    type: z.literal('message').optional(),
    id: z.string().optional(),
    role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be one of user, assistant, system, developer' }),
    content: z.union([z.string(), z.array(contentPart)], {
      error: (issue) => (Array.isArray(issue.input) ? undefined : 'content must be a string or an array of content parts'),
    }),
  })
  .superRefine((message, ctx) => refuseAttachmentsOutsideUserTurns(message.role, message.content, RESPONSES_ATTACHMENTS, ctx));

const functionCallItem = z.object({
  type: z.literal('function_call'),
  id: z.string().optional(),
  call_id: z.string({ error: 'call_id is required' }).min(1, 'call_id is required'),
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  arguments: z.string({ error: 'arguments must be a JSON string' }),
});

const functionCallOutputItem = z.object({
  type: z.literal('function_call_output'),
  id: z.string().optional(),
  call_id: z.string({ error: 'call_id is required' }).min(1, 'call_id is required'),
  output: z.union([z.string(), z.array(z.discriminatedUnion('type', [inputText, outputText, inputImage, inputFile], { error: 'output part type must be one of input_text, output_text, input_image, input_file' }))], {
    error: (issue) => (Array.isArray(issue.input) ? undefined : 'output must be a string or an array of input_text, input_image and input_file parts'),
  }),
});

/**
 * A reasoning item of an earlier answer, sent back as the answer gave it. Its `encrypted_content`
 * carries the signed thinking an Anthropic upstream checks (this gateway's own: reasoning.ts); one
 * another server made (OpenAI's) is accepted and not sent on, as is the item's text.
 */
const reasoningItem = z.object({
  type: z.literal('reasoning'),
  id: z.string().optional(),
  summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string({ error: 'text must be a string' }) }), { error: 'summary must be an array of summary_text parts' }).optional(),
  content: z.array(z.object({ type: z.literal('reasoning_text'), text: z.string({ error: 'text must be a string' }) }), { error: 'content must be an array of reasoning_text parts' }).nullable().optional(),
  encrypted_content: z
    .string({ error: 'encrypted_content must be a string' })
    .refine((sealed) => unsealReasoning(sealed) !== undefined, 'encrypted_content is not the reasoning of an answer of this gateway')
    .nullable()
    .optional(),
});

/** Items in one request's `input` at most: each is resolved, checked and translated (references each read once, responses.conversation.ts). */
export const MAX_INPUT_ITEMS = 2048;

const itemReference = z.object({ type: z.literal('item_reference'), id: z.string({ error: 'id is required' }).min(1, 'id is required') });

/** Items as the API takes them: a message without `type` is a message. */
const inputItem = z.union([messageItem, functionCallItem, functionCallOutputItem, reasoningItem, itemReference], {
  error: 'input item type must be one of message, function_call, function_call_output, reasoning, item_reference',
});

const functionTool = z.object({
  type: z.literal('function', { error: 'only function tools are supported' }),
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

const textFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({ type: z.literal('json_schema'), ...jsonSchemaFormatFields }),
  ],
  { error: 'text.format type must be one of text, json_object, json_schema' },
);

export const responsesRequestSchema = z.object({
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  input: z
    .union([z.string(), z.array(inputItem).max(MAX_INPUT_ITEMS, `input may hold at most ${MAX_INPUT_ITEMS} items (item_reference included)`)], {
      error: (issue) => (Array.isArray(issue.input) ? undefined : 'input must be a string or an array of items'),
    })
    .optional(),
  instructions: z.string().nullable().optional(),
  tools: z.array(functionTool).optional(),
  tool_choice: z
    .union([z.enum(['auto', 'none', 'required']), z.object({ type: z.literal('function'), name: z.string().min(1) })], {
      error: 'tool_choice must be auto, none, required or {type: "function", name}',
    })
    .optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  /**
   * `effort` as chat completions' reasoning_effort; with `summary` the reasoning item carries the
   * thinking as its `summary` (else as its `content`).
   */
  reasoning: z
    .object(
      {
        effort: reasoningEffortSchema('reasoning.effort').nullable().optional(),
        summary: z.enum(['auto', 'concise', 'detailed'], { error: 'reasoning.summary must be one of auto, concise, detailed' }).nullable().optional(),
      },
      { error: 'reasoning must be an object' },
    )
    .nullable()
    .optional(),
  max_output_tokens: z.number({ error: 'max_output_tokens must be a positive integer' }).int('max_output_tokens must be a positive integer').positive('max_output_tokens must be a positive integer').nullable().optional(),
  temperature: z.number({ error: 'temperature must be a number' }).min(0, 'temperature must be between 0 and 2').max(2, 'temperature must be between 0 and 2').nullable().optional(),
  top_p: z.number({ error: 'top_p must be a number' }).min(0, 'top_p must be between 0 and 1').max(1, 'top_p must be between 0 and 1').nullable().optional(),
  text: z.object({ format: textFormat.optional() }).nullable().optional(),
  metadata: z.record(z.string(), z.string(), { error: 'metadata must map strings to strings' }).nullable().optional(),
  store: z.boolean({ error: 'store must be a boolean' }).nullable().optional(),
  stream: z.boolean({ error: 'stream must be a boolean' }).nullable().optional(),
  previous_response_id: z.string().min(1).nullable().optional(),
  ...promptCacheFields,
});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.infer<typeof inputItem>;
export type ResponsesContentPart = z.infer<typeof contentPart>;

export function parseResponsesBody(body: unknown): ResponsesRequest {
  return parseWith(responsesRequestSchema, body);
}

/** GET /v1/responses/{id}/input_items: OpenAI's cursor page (`include` is accepted and ignored). */
export const inputItemsQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer between 1 and 100').min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100').default(20),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
  after: z.string().min(1, 'after must be an item id').optional(),
  include: z.union([z.string(), z.array(z.string())]).optional(),
});

export type InputItemsQuery = z.infer<typeof inputItemsQuerySchema>;
