// Registry entries of the gateway's other wire formats: the OpenAI Responses API
// (POST /v1/responses, GET and DELETE of a stored response, its input items) and the Anthropic Messages API
// (POST /v1/messages, /v1/messages/count_tokens), whose errors take Anthropic's shape.
import { z } from 'zod';
import { messagesRequestSchema } from '../../gateway/wire/messages.schemas.js';
import { inputItemsQuerySchema, responsesRequestSchema } from '../../gateway/wire/responses.schemas.js';
import { apiSchemas, type Operation } from './registry.js';

const GATEWAY_HEADERS = {
  'X-Gateway-Cost': 'The answer\'s cost in USD (plain answers; a stream carries it in its final usage as `cost`)',
  'X-Gateway-Overhead-Ms': "The gateway's own time for the request: the total less the time spent waiting on upstreams",
};

const outputItem = z.union([
  z.object({
    type: z.literal('message'),
    id: z.string(),
    status: z.string(),
    role: z.literal('assistant'),
    content: z.array(z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) })),
  }),
  z.object({ type: z.literal('function_call'), id: z.string(), call_id: z.string(), name: z.string(), arguments: z.string().describe('JSON text'), status: z.string() }),
]);

const responseObject = z
  .object({
    id: z.string().describe('`resp_...`'),
    object: z.literal('response'),
    created_at: z.number().int(),
    status: z.enum(['completed', 'incomplete', 'in_progress', 'failed']),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.object({ reason: z.string() }).nullable(),
    instructions: z.string().nullable(),
    model: z.string().describe('The model that answered'),
    output: z.array(outputItem),
    output_text: z.string().describe('The text of the message items, joined'),
    previous_response_id: z.string().nullable(),
    store: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    usage: z
      .object({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int(), cost: z.number().optional().describe('USD') })
      .nullable(),
  })
  .register(apiSchemas, { id: 'Response' });

const inputItem = z.union([
  z.object({
    type: z.literal('message'),
    id: z.string(),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    status: z.literal('completed'),
    content: z.array(z.object({ type: z.enum(['input_text', 'output_text', 'refusal', 'input_image', 'input_file']) }).passthrough()),
  }),
  z.object({ type: z.literal('function_call'), id: z.string(), call_id: z.string(), name: z.string(), arguments: z.string(), status: z.literal('completed') }),
  z.object({ type: z.literal('function_call_output'), id: z.string(), call_id: z.string(), output: z.unknown().describe('A string, or input_text, input_image and input_file parts, as sent'), status: z.literal('completed') }),
]);

const inputItemList = z
  .object({
    object: z.literal('list'),
    data: z.array(inputItem),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  })
  .register(apiSchemas, { id: 'ResponseInputItemList' });

const deletedResponse = z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }).register(apiSchemas, { id: 'DeletedResponse' });

const anthropicMessage = z
  .object({
    id: z.string().describe('`msg_...`'),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string().describe('The model that answered'),
    content: z.array(
      z.union([
        z.object({ type: z.literal('text'), text: z.string() }),
        z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
      ]),
    ),
    stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal']),
    stop_sequence: z.string().nullable(),
    usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  })
  .register(apiSchemas, { id: 'AnthropicMessage' });

const countTokensResult = z.object({ input_tokens: z.number().int().describe('Estimated locally (o200k BPE), not by the upstream') }).register(apiSchemas, { id: 'CountTokensResult' });

const countTokensRequest = messagesRequestSchema.pick({ model: true, messages: true, system: true, tools: true, tool_choice: true });

const responseId = z.string().regex(/^resp_[A-Za-z0-9]{1,100}$/, 'a response id (resp_...)').describe('A stored response id');

const MESSAGES_ERRORS: Operation['errors'] = ['budget_exceeded', 'dlp_blocked', 'model_not_allowed', 'provider_error', 'provider_unavailable', 'service_unavailable'];

export const wireOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/responses',
    operationId: 'createResponse',
    tag: 'Chat completions',
    summary: 'Create a response (the OpenAI Responses API, plain or streamed)',
    description:
      'The Responses API over the same gateway core as chat completions. `input` is a string or items (`message` with `input_text`/`input_image`/`input_file`/`output_text` parts, `function_call`, `function_call_output` with a string or `input_text`/`input_image`/`input_file` parts, `item_reference`); function tools only; a file is a PDF as a `data:` URL (`file_data`). ' +
      '`store` (default true) keeps the response, its input and output items for RESPONSES_RETENTION_DAYS, encrypted, so `previous_response_id` and `item_reference` resolve for the user who stored it (admins and the owner may read and delete it, not continue it); over QUOTA_STORED_RESPONSE_BYTES it is 403 `quota_exceeded`; `store: false` keeps nothing. ' +
      '`input` holds at most 2,048 items, and what references resolve from stored responses is capped at 4 x BODY_LIMIT_BYTES (400 naming the field).',
    auth: 'caller',
    body: {
      id: 'ResponsesRequest',
      schema: responsesRequestSchema,
      required: true,
      example: { model: 'standard', instructions: 'You are terse.', input: 'Hello', max_output_tokens: 64 },
    },
    responses: {
      200: {
        description: 'The response (`stream: false`)',
        schema: responseObject,
        headers: GATEWAY_HEADERS,
        stream:
          'With `stream: true`: `response.created`, `response.in_progress`, per item `response.output_item.added`, `response.content_part.added`, `response.output_text.delta`..., `response.output_text.done` (or `response.function_call_arguments.delta`/`.done`), `response.output_item.done`, then `response.completed` (or `response.incomplete`) with usage; a failure after the first event is `response.failed` then `error`.',
      },
    },
    errors: ['budget_exceeded', 'dlp_blocked', 'model_not_allowed', 'quota_exceeded', 'provider_error', 'provider_unavailable', 'service_unavailable'],
  },
  {
    method: 'get',
    path: '/v1/responses/{id}',
    operationId: 'getResponse',
    tag: 'Chat completions',
    summary: 'A stored response',
    auth: 'caller',
    pathParams: { id: responseId },
    responses: { 200: { description: 'The response as it was answered', schema: responseObject } },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/responses/{id}/input_items',
    operationId: 'listResponseInputItems',
    tag: 'Chat completions',
    summary: "A stored response's input items (a cursor page)",
    description:
      'The conversation the response answered, as items with ids: its input with every `item_reference` resolved and, when it continued `previous_response_id`, the earlier turns too. ' +
      'Newest first by default (`order: desc`); `after` is the id of the last item of the previous page.',
    auth: 'caller',
    pathParams: { id: responseId },
    query: inputItemsQuerySchema,
    responses: { 200: { description: 'A page of input items', schema: inputItemList } },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/responses/{id}',
    operationId: 'deleteResponse',
    tag: 'Chat completions',
    summary: 'Delete a stored response and its items',
    auth: 'caller',
    pathParams: { id: responseId },
    responses: { 200: { description: 'Deleted', schema: deletedResponse } },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/messages',
    operationId: 'createMessage',
    tag: 'Chat completions',
    summary: 'Create a message (the Anthropic Messages API, plain or streamed)',
    description:
      'The Anthropic Messages API over the same gateway core. The API key goes in `x-api-key` (or as a bearer token); `anthropic-version` and `anthropic-beta` are accepted. Anthropic clients take the service origin, without `/v1`, as their base URL. ' +
      'Content blocks: `text`, `image`, `document` (a base64 PDF or plain text, in a user turn or a tool result), `tool_use`, `tool_result`. ' +
      'Errors here take Anthropic\'s shape, `{"type": "error", "error": {"type", "message"}}`, with its statuses (`overloaded_error` is 529).',
    auth: 'caller',
    errorShape: 'anthropic',
    body: { id: 'MessagesRequest', schema: messagesRequestSchema, required: true, example: { model: 'premium', max_tokens: 256, system: 'You are terse.', messages: [{ role: 'user', content: 'Hello' }] } },
    responses: {
      200: {
        description: 'The message (`stream: false`)',
        schema: anthropicMessage,
        headers: GATEWAY_HEADERS,
        stream:
          'With `stream: true`: `message_start`, `ping`, per block `content_block_start`, `content_block_delta` (`text_delta` or `input_json_delta`)..., `content_block_stop`, then `message_delta` (stop reason, usage with `cost`) and `message_stop`; a failure after the first event is an `error` event.',
      },
    },
    errors: MESSAGES_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/messages/count_tokens',
    operationId: 'countMessageTokens',
    tag: 'Chat completions',
    summary: "Count a Messages request's input tokens (estimated locally)",
    auth: 'caller',
    errorShape: 'anthropic',
    body: { id: 'CountTokensRequest', schema: countTokensRequest, required: true, example: { model: 'premium', messages: [{ role: 'user', content: 'Hello' }] } },
    responses: { 200: { description: 'The estimate', schema: countTokensResult } },
    errors: ['model_not_allowed'],
  },
];
