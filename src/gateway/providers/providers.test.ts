import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest, createAnthropicStreamTranslator, mapAnthropicError, parseAnthropicResponse } from './anthropic/index.js';
import { buildOpenAiRequest, createOpenAiStreamTranslator, mapOpenAiError, parseOpenAiResponse } from './openai/index.js';
import type { ChatCompletionRequest, ChatMessage } from '../types.js';


/** The messages each kind of upstream receives for these internal messages. */
const sentToOpenAi = (messages: ChatMessage[]) => JSON.parse(buildOpenAiRequest({ request: { model: 'm', messages }, upstreamModel: 'gpt-x', maxTokens: 10, apiKey: 'k', stream: false }).body).messages;
const sentToAnthropic = (messages: ChatMessage[]) => JSON.parse(buildAnthropicRequest({ request: { model: 'm', messages }, upstreamModel: 'claude-x', maxTokens: 100, apiKey: 'k', stream: false }).body).messages;
describe('mapProviderError', () => {
  it.each([
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [529, true],
    [408, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])('classifies status %i as retryable=%s', (status, retryable) => {
    expect(mapOpenAiError(status, '').retryable).toBe(retryable);
    expect(mapAnthropicError(status, '').retryable).toBe(retryable);
  });

  it('passes on the upstream error type but never its message', () => {
    const openai = mapOpenAiError(400, JSON.stringify({ error: { message: 'your prompt: secret', type: 'invalid_request_error', code: 'context_length_exceeded' } }));
    expect(openai.message).toContain('context_length_exceeded');
    expect(openai.message).not.toContain('secret');
    const anthropic = mapAnthropicError(529, JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'secret' } }));
    expect(anthropic).toEqual({ retryable: true, message: expect.stringContaining('overloaded_error') });
    expect(mapOpenAiError(500, '<html>oops</html>').message).not.toContain('html');
  });
});

describe('openai transforms', () => {
  it('asks for usage in streams and sends the capped max_tokens and the upstream model', () => {
    const built = buildOpenAiRequest({ request: { model: 'standard', messages: [{ role: 'user', content: 'hi' }] }, upstreamModel: 'gpt-x', maxTokens: 10, apiKey: 'k', stream: true });
    expect(built.path).toBe('/chat/completions');
    expect(built.headers.authorization).toBe('Bearer k');
    expect(JSON.parse(built.body)).toEqual({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10, temperature: 1, stream: true, stream_options: { include_usage: true } });
  });

  it('moves the images of tool results into a user message after that turn\'s tool messages', () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'screenshots?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }, { id: 'c2', type: 'function', function: { name: 'shot', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'the page' }, image] },
      { role: 'tool', tool_call_id: 'c2', content: [image] },
      { role: 'user', content: 'and?' },
    ];
    const sent = sentToOpenAi(messages);
    expect(sent.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'the page' },
      { role: 'tool', tool_call_id: 'c2', content: '(images, in the next message)' },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call c1:' }, image, { type: 'text', text: 'Images returned by tool call c2:' }, image] },
      { role: 'user', content: 'and?' },
    ]);
    // Without images in tool results, the messages go as they are.
    const plain: ChatMessage[] = [{ role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'r' }] }];
    expect(sentToOpenAi(plain)).toEqual(plain);
  });

  it('says a failed tool result is one in its text, which has no field for it', () => {
    const image = { type: 'image_url' as const, image_url: { url: 'https://x/y.png' } };
    const messages: ChatMessage[] = [
      { role: 'tool', tool_call_id: 'c1', content: 'boom', isError: true },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], isError: true },
      { role: 'tool', tool_call_id: 'c3', content: [image], isError: true },
      { role: 'tool', tool_call_id: 'c4', content: 'fine' },
    ];
    const sent = sentToOpenAi(messages);
    expect(sent).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'Error: boom' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: a\nb' },
      { role: 'tool', tool_call_id: 'c3', content: 'Error: (images, in the next message)' },
      { role: 'tool', tool_call_id: 'c4', content: 'fine' },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by tool call c3:' }, image] },
    ]);
  });

  it('sends files in user messages as they are, and moves a tool result\'s files after the tool messages like its images', () => {
    const file = { type: 'file' as const, file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'r.pdf' } };
    const image = { type: 'image_url' as const, image_url: { url: 'https://x/y.png' } };
    const messages: ChatMessage[] = [
      { role: 'user', content: [file, { type: 'text', text: 'read it' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }, { id: 'c2', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [file] },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'both' }, image, file] },
    ];
    const sent = sentToOpenAi(messages);
    expect(sent).toEqual([
      messages[0],
      messages[1],
      { role: 'tool', tool_call_id: 'c1', content: '(files, in the next message)' },
      { role: 'tool', tool_call_id: 'c2', content: 'both' },
      { role: 'user', content: [{ type: 'text', text: 'Files returned by tool call c1:' }, file, { type: 'text', text: 'Images and files returned by tool call c2:' }, image, file] },
    ]);
  });

  it('sends the output bound as max_completion_tokens to a provider configured so', () => {
    const built = buildOpenAiRequest({ request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, upstreamModel: 'o-x', maxTokens: 4096, maxTokensParam: 'max_completion_tokens', apiKey: 'k', stream: false });
    const body = JSON.parse(built.body);
    expect(body.max_completion_tokens).toBe(4096);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('reads content, tool calls and usage, and stream chunks', () => {
    expect(parseOpenAiResponse({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] })).toEqual({ content: 'x', toolCalls: [], finishReason: 'stop', usage: null });
    const translator = createOpenAiStreamTranslator();
    expect(translator.translate({ data: JSON.stringify({ choices: [{ delta: { role: 'assistant', content: 'a' }, finish_reason: null }] }) })).toEqual([{ delta: { role: 'assistant', content: 'a' }, finishReason: null }]);
    expect(translator.translate({ data: JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } }) })).toEqual([{ delta: {}, finishReason: null, usage: { inputTokens: 3, outputTokens: 4 } }]);
    expect(translator.translate({ data: '[DONE]' })).toEqual([]);
    expect(() => translator.translate({ data: JSON.stringify({ error: { message: 'boom' } }) })).toThrow();
  });
});

describe('anthropic transforms', () => {
  it('extracts system prompts, merges consecutive turns, scales temperature, maps tools', () => {
    const built = buildAnthropicRequest({
      request: {
        model: 'm',
        temperature: 1,
        messages: [
          { role: 'system', content: 'A' },
          { role: 'system', content: 'B' },
          { role: 'user', content: 'q' },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }, { id: 't2', type: 'function', function: { name: 'g', arguments: 'not json' } }] },
          { role: 'tool', tool_call_id: 't1', content: 'r1' },
          { role: 'tool', tool_call_id: 't2', content: 'r2' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        tool_choice: 'required',
      },
      upstreamModel: 'claude-x',
      maxTokens: 4096,
      apiKey: 'k',
      stream: false,
    });
    const body = JSON.parse(built.body);
    expect(body).toMatchObject({ model: 'claude-x', system: 'A\n\nB', max_tokens: 4096, temperature: 0.5, tool_choice: { type: 'any' } });
    expect(body.tools).toEqual([{ name: 'f', input_schema: { type: 'object' } }]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }, { type: 'tool_use', id: 't2', name: 'g', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r1' }, { type: 'tool_result', tool_use_id: 't2', content: 'r2' }] },
    ]);
  });

  it('sends the images of a tool result in its tool_result block', () => {
    const sent = sentToAnthropic([
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'shot', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: [{ type: 'text', text: 'the page' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
    ]);
    expect(sent[1]).toEqual({
      role: 'user',
      content: [{
        type: 'tool_result',
        tool_use_id: 't1',
        content: [
          { type: 'text', text: 'the page' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
        ],
      }],
    });
  });

  it('sends a file as a base64 document titled with its name, in a user turn and in a tool result', () => {
    const file = { type: 'file' as const, file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'r.pdf' } };
    const sent = sentToAnthropic([
      { role: 'user', content: [file, { type: 'text', text: 'read it' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } }] },
    ]);
    const document = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } };
    expect(sent).toEqual([
      { role: 'user', content: [{ ...document, title: 'r.pdf' }, { type: 'text', text: 'read it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [document] }] },
    ]);
  });

  it('sends a failed tool result with is_error set, its content as it is', () => {
    const sent = sentToAnthropic([
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 't2', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 't1', content: 'boom', isError: true },
      { role: 'tool', tool_call_id: 't2', content: 'fine' },
    ]);
    expect(sent[1]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }, { type: 'tool_result', tool_use_id: 't2', content: 'fine' }],
    });
  });

  it('maps stop reasons and usage', () => {
    expect(parseAnthropicResponse({ content: [{ type: 'text', text: 'hi' }], stop_reason: 'max_tokens', usage: { input_tokens: 5, output_tokens: 2 } })).toEqual({
      content: 'hi',
      toolCalls: [],
      finishReason: 'length',
      usage: { inputTokens: 5, outputTokens: 2 },
    });
  });

  it('translates stream events into deltas, tool calls and a usage chunk (the prompt\'s count already on the role chunk)', () => {
    const t = createAnthropicStreamTranslator();
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 9 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu', name: 'f' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 4 } },
      { type: 'message_stop' },
    ].flatMap((event) => t.translate({ event: event.type, data: JSON.stringify(event) }));
    expect(events).toEqual([
      // message_start's count: what the stream is billed for its prompt should it end before message_delta.
      { delta: { role: 'assistant' }, finishReason: null, promptUsage: { inputTokens: 9, outputTokens: 0 } },
      { delta: { content: 'Hi' }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, id: 'tu', type: 'function', function: { name: 'f', arguments: '' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }, finishReason: null },
      { delta: {}, finishReason: 'tool_calls' },
      { delta: {}, finishReason: null, usage: { inputTokens: 9, outputTokens: 4 } },
    ]);
    expect(() => t.translate({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error' } }) })).toThrow();
  });
});

describe('wire-format fields (Messages and Responses routes)', () => {
  const request = {
    model: 'x',
    messages: [{ role: 'user' as const, content: 'hi' }],
    stop: ['END'],
    top_k: 3,
    parallel_tool_calls: false,
    tools: [{ type: 'function' as const, function: { name: 't' } }],
    response_format: { type: 'json_schema' as const, json_schema: { name: 's', schema: { type: 'object' } } },
  };

  it('sends stop, parallel_tool_calls and response_format to OpenAI-compatible upstreams, never top_k', () => {
    const body = JSON.parse(buildOpenAiRequest({ request, upstreamModel: 'u', maxTokens: 5, apiKey: undefined, stream: false }).body) as Record<string, unknown>;
    expect(body).toMatchObject({ stop: ['END'], parallel_tool_calls: false, response_format: request.response_format });
    expect(body).not.toHaveProperty('top_k');
  });

  it('sends stop_sequences, top_k and disable_parallel_tool_use to Anthropic, and reads back the stop sequence', () => {
    const body = JSON.parse(buildAnthropicRequest({ request, upstreamModel: 'u', maxTokens: 5, apiKey: undefined, stream: false }).body) as Record<string, unknown>;
    expect(body).toMatchObject({ stop_sequences: ['END'], top_k: 3, tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(body).not.toHaveProperty('response_format');
    const parsed = parseAnthropicResponse({ content: [{ type: 'text', text: 'a' }], stop_reason: 'stop_sequence', stop_sequence: 'END', usage: { input_tokens: 1, output_tokens: 1 } });
    expect(parsed).toMatchObject({ finishReason: 'stop', stopSequence: 'END' });
    const translator = createAnthropicStreamTranslator();
    const [finish] = translator.translate({ data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' }, usage: { output_tokens: 2 } }) });
    expect(finish).toMatchObject({ finishReason: 'stop', stopSequence: 'END' });
  });
});

describe('context-length errors', () => {
  it.each([
    [400, '{"error":{"code":"context_length_exceeded","message":"too long"}}', true],
    [400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}', true],
    [400, '{"error":{"message":"This model\'s maximum context length is 4096 tokens"}}', true],
    [400, '{"error":{"code":"invalid_value","message":"temperature"}}', false],
    [500, '{"error":{"code":"context_length_exceeded"}}', false],
  ])('classifies %i %s as context length exceeded: %s', (status, body, expected) => {
    expect(mapOpenAiError(status, body).contextLengthExceeded === true).toBe(expected);
    expect(mapAnthropicError(status, body).contextLengthExceeded === true).toBe(expected);
  });
});

describe('prompt-cache counts', () => {
  it("counts Anthropic's cache reads and writes into the input tokens, named beside them, plain and streamed", () => {
    const usage = { input_tokens: 100, cache_creation_input_tokens: 300, cache_read_input_tokens: 600, output_tokens: 10 };
    expect(parseAnthropicResponse({ content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage }).usage).toEqual({ inputTokens: 1000, outputTokens: 10, cacheReadTokens: 600, cacheWriteTokens: 300 });
    const translator = createAnthropicStreamTranslator();
    translator.translate({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { usage: { ...usage, output_tokens: 1 } } }) });
    // message_delta repeats the prompt's counts lately, with null for those it leaves alone.
    const delta = translator.translate({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 10, cache_read_input_tokens: null } }) });
    expect(delta.at(-1)!.usage).toEqual({ inputTokens: 1000, outputTokens: 10, cacheReadTokens: 600, cacheWriteTokens: 300 });
  });

  it("reads an OpenAI-style upstream's cached_tokens as cache reads already inside prompt_tokens", () => {
    const body = { choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 500, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 400 } } };
    expect(parseOpenAiResponse(body).usage).toEqual({ inputTokens: 500, outputTokens: 5, cacheReadTokens: 400 });
    expect(parseOpenAiResponse({ ...body, usage: { prompt_tokens: 500, completion_tokens: 5 } }).usage).toEqual({ inputTokens: 500, outputTokens: 5 });
  });
});

describe('structured output on Anthropic upstreams', () => {
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Where?' }], response_format: { type: 'json_schema' as const, json_schema: { name: 'place', schema: { type: 'object' } } } };

  it('reads a call of the format tool as the text of the answer, and a stop', () => {
    const body = { content: [{ type: 'tool_use', id: 't1', name: 'place', input: { city: 'Oslo' } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } };
    expect(parseAnthropicResponse(body, request)).toMatchObject({ content: '{"city":"Oslo"}', toolCalls: [], finishReason: 'stop' });
    // Without the format in the request, the same answer is a tool call.
    expect(parseAnthropicResponse(body)).toMatchObject({ content: null, finishReason: 'tool_calls' });
  });

  it("streams the format tool's input as text deltas", () => {
    const translator = createAnthropicStreamTranslator(request);
    const events = [
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'place' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } },
    ];
    const chunks = events.flatMap((event) => translator.translate({ event: event.type, data: JSON.stringify(event) }));
    expect(chunks.map((chunk) => chunk.delta.content ?? '').join('')).toBe('{"city":"Oslo"}');
    expect(chunks.some((chunk) => chunk.delta.tool_calls)).toBe(false);
    expect(chunks.find((chunk) => chunk.finishReason !== null)!.finishReason).toBe('stop');
  });
});

describe('reasoning: effort and extended thinking', () => {
  const thinking = { type: 'thinking' as const, thinking: 'Weigh it.', signature: 'sig-1' };
  const redacted = { type: 'redacted_thinking' as const, data: 'opaque' };
  const toolLoop: ChatMessage[] = [
    { role: 'user', content: 'Weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'tu1', type: 'function', function: { name: 'weather', arguments: '{}' } }], reasoning: [thinking, redacted] },
    { role: 'tool', tool_call_id: 'tu1', content: 'sunny' },
  ];
  const anthropicBody = (request: Partial<ChatCompletionRequest>, maxTokens = 20_000) =>
    JSON.parse(buildAnthropicRequest({ request: { model: 'm', messages: [{ role: 'user', content: 'q' }], ...request }, upstreamModel: 'claude-x', maxTokens, apiKey: undefined, stream: false }).body) as Record<string, any>;

  it('asks Anthropic for the Messages client\'s budget, without temperature or top_k, and a top_p only from 0.95', () => {
    const body = anthropicBody({ reasoning: { budgetTokens: 4000 }, temperature: 0.4, top_k: 5, top_p: 0.9 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_k');
    expect(body).not.toHaveProperty('top_p');
    expect(anthropicBody({ reasoning: { budgetTokens: 4000 }, top_p: 0.97 }).top_p).toBe(0.97);
    // A budget at the output bound leaves room for one token of answer, as Anthropic requires.
    expect(anthropicBody({ reasoning: { budgetTokens: 4000 } }, 3000).thinking).toEqual({ type: 'enabled', budget_tokens: 2999 });
  });

  it('turns an effort into a budget of at most half the output bound, and none below 1,024 tokens or for none', () => {
    expect(anthropicBody({ reasoning: { effort: 'high' } }, 40_000).thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    expect(anthropicBody({ reasoning: { effort: 'high' } }, 6000).thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(anthropicBody({ reasoning: { effort: 'low' } }, 1500)).not.toHaveProperty('thinking');
    expect(anthropicBody({ reasoning: { effort: 'none' } })).not.toHaveProperty('thinking');
    expect(anthropicBody({ reasoning: { effort: 'none' } }).temperature).toBe(0.5);
  });

  it('sends a tool loop\'s thinking back first in its turn, unchanged, when the request thinks', () => {
    const body = anthropicBody({ messages: toolLoop, reasoning: { budgetTokens: 2048 }, tools: [{ type: 'function', function: { name: 'weather' } }] });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [thinking, redacted, { type: 'tool_use', id: 'tu1', name: 'weather', input: {} }] });
    // Without thinking the blocks stay behind, as Anthropic would leave them out anyway.
    expect(anthropicBody({ messages: toolLoop }).messages[1].content).toEqual([{ type: 'tool_use', id: 'tu1', name: 'weather', input: {} }]);
    expect(sentToAnthropic([{ role: 'assistant', content: 'a', reasoning: [thinking] }])).toEqual([{ role: 'assistant', content: 'a' }]);
  });

  it('asks for no thinking where Anthropic would refuse it: a forced tool, structured output\'s tool, a tool loop without its thinking', () => {
    const tools = [{ type: 'function' as const, function: { name: 'weather' } }];
    expect(anthropicBody({ reasoning: { budgetTokens: 2048 }, tools, tool_choice: 'required' })).not.toHaveProperty('thinking');
    expect(anthropicBody({ reasoning: { budgetTokens: 2048 }, tools, tool_choice: { type: 'function', function: { name: 'weather' } } })).not.toHaveProperty('thinking');
    expect(anthropicBody({ reasoning: { effort: 'medium' }, response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' } } } })).not.toHaveProperty('thinking');
    const withoutThinking = toolLoop.map(({ reasoning: _r, ...message }) => message);
    const body = anthropicBody({ messages: withoutThinking, reasoning: { effort: 'high' }, tools });
    expect(body).not.toHaveProperty('thinking');
    expect(body.temperature).toBe(0.5);
    expect(anthropicBody({ reasoning: { budgetTokens: 2048 }, tools, tool_choice: 'auto' }).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('reads thinking and redacted thinking back, whole and streamed', () => {
    const parsed = parseAnthropicResponse({ content: [thinking, redacted, { type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 9 } });
    expect(parsed).toMatchObject({ content: 'Sunny.', reasoning: [thinking, redacted] });
    expect(parseAnthropicResponse({ content: [{ type: 'text', text: 'a' }], stop_reason: 'end_turn' })).not.toHaveProperty('reasoning');
    const t = createAnthropicStreamTranslator();
    const chunks = [
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Weigh' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Sunny.' } },
    ].flatMap((event) => t.translate({ data: JSON.stringify(event) }));
    expect(chunks).toEqual([
      { delta: { reasoning: { index: 0, thinking: '' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: 'Weigh' } }, finishReason: null },
      { delta: { reasoning: { index: 0, signature: 'sig-1' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { content: 'Sunny.' }, finishReason: null },
    ]);
  });

  it('sends an effort the client named to OpenAI-style upstreams as reasoning_effort, never a thinking budget or thinking blocks', () => {
    const openAiBody = (request: Partial<ChatCompletionRequest>) =>
      JSON.parse(buildOpenAiRequest({ request: { model: 'm', messages: toolLoop, ...request }, upstreamModel: 'o-x', maxTokens: 100, apiKey: undefined, stream: false }).body) as Record<string, any>;
    expect(openAiBody({ reasoning: { effort: 'low' } }).reasoning_effort).toBe('low');
    expect(openAiBody({ reasoning: { budgetTokens: 4096 } })).not.toHaveProperty('reasoning_effort');
    expect(openAiBody({})).not.toHaveProperty('reasoning_effort');
    const sent = openAiBody({}).messages as Record<string, unknown>[];
    expect(sent[1]).not.toHaveProperty('reasoning');
    expect(sent[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'tu1' }] });
    // Also where tool messages are rewritten (a failed tool's result).
    const rewritten = sentToOpenAi([...toolLoop.slice(0, 2), { role: 'tool', tool_call_id: 'tu1', content: 'boom', isError: true }]);
    expect(rewritten[1]).not.toHaveProperty('reasoning');
  });
});

describe('reasoning an OpenAI-compatible server shows', () => {
  it('reads reasoning_content (DeepSeek, vLLM) or reasoning (OpenRouter) as one unsigned thinking block, whole and streamed', () => {
    const answer = (message: Record<string, unknown>) => parseOpenAiResponse({ choices: [{ message: { content: 'Paris.', ...message }, finish_reason: 'stop' }] });
    expect(answer({ reasoning_content: 'The capital is Paris.' }).reasoning).toEqual([{ type: 'thinking', thinking: 'The capital is Paris.', signature: '' }]);
    expect(answer({ reasoning: 'Capital: Paris.' }).reasoning).toEqual([{ type: 'thinking', thinking: 'Capital: Paris.', signature: '' }]);
    expect(answer({ reasoning_content: null })).not.toHaveProperty('reasoning');
    expect(answer({ reasoning: { effort: 'low' } })).not.toHaveProperty('reasoning');
    const t = createOpenAiStreamTranslator();
    expect(t.translate({ data: JSON.stringify({ choices: [{ delta: { reasoning_content: 'The capital' }, finish_reason: null }] }) })).toEqual([
      { delta: { reasoning: { index: 0, thinking: 'The capital' } }, finishReason: null },
    ]);
    expect(t.translate({ data: JSON.stringify({ choices: [{ delta: { content: 'Paris.' }, finish_reason: null }] }) })).toEqual([{ delta: { content: 'Paris.' }, finishReason: null }]);
  });

  it('never sends unsigned thinking to Anthropic, which could not check it: a tool loop with only that thinks no more', () => {
    const unsigned = { type: 'thinking' as const, thinking: 'shown by another server', signature: '' };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'tu1', type: 'function', function: { name: 'f', arguments: '{}' } }], reasoning: [unsigned] },
      { role: 'tool', tool_call_id: 'tu1', content: 'r' },
    ];
    const body = JSON.parse(buildAnthropicRequest({ request: { model: 'm', messages, reasoning: { budgetTokens: 2048 } }, upstreamModel: 'c', maxTokens: 8000, apiKey: undefined, stream: false }).body);
    expect(body).not.toHaveProperty('thinking');
    expect(JSON.stringify(body)).not.toContain('shown by another server');
    const answered: ChatMessage[] = [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning: [unsigned] }, { role: 'user', content: 'more' }];
    const thinking = JSON.parse(buildAnthropicRequest({ request: { model: 'm', messages: answered, reasoning: { budgetTokens: 2048 } }, upstreamModel: 'c', maxTokens: 8000, apiKey: undefined, stream: false }).body);
    expect(thinking.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(thinking.messages[1]).toEqual({ role: 'assistant', content: 'a' });
  });
});

describe('Anthropic prompt-cache usage', () => {
  const usage = { input_tokens: 10, cache_read_input_tokens: 60, cache_creation_input_tokens: 30, cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 10 }, output_tokens: 5 };

  it("reads the writes' 1-hour share (cacheWrite1hTokens) beside their total, whole and streamed from message_start on", () => {
    const counts = { inputTokens: 100, outputTokens: 5, cacheReadTokens: 60, cacheWriteTokens: 30, cacheWrite1hTokens: 10 };
    expect(parseAnthropicResponse({ content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage }).usage).toEqual(counts);
    const translator = createAnthropicStreamTranslator();
    const start = translator.translate({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { usage: { ...usage, output_tokens: 1 } } }) });
    expect(start[0]!.promptUsage).toEqual({ ...counts, outputTokens: 0 });
    const end = translator.translate({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } }) });
    expect(end.find((chunk) => chunk.usage)!.usage).toEqual(counts);
  });

  it('takes the split alone as the total when cache_creation_input_tokens is absent', () => {
    const { cache_creation_input_tokens: _total, ...split } = usage;
    expect(parseAnthropicResponse({ content: [], usage: split }).usage).toMatchObject({ inputTokens: 100, cacheWriteTokens: 30, cacheWrite1hTokens: 10 });
  });
});

describe('fidelity to an Anthropic upstream', () => {
  const build = (request: Partial<ChatCompletionRequest>) =>
    JSON.parse(buildAnthropicRequest({ request: { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...request }, upstreamModel: 'claude-x', maxTokens: 100, apiKey: 'k', stream: false }).body);

  it("sends no temperature of its own for a request with upstreamDefaults (a Messages client's), the spec's 0.5 otherwise", () => {
    expect(build({ upstreamDefaults: true })).not.toHaveProperty('temperature');
    expect(build({ upstreamDefaults: true, temperature: 1 }).temperature).toBe(0.5);
    expect(build({}).temperature).toBe(0.5);
  });

  it('keeps system blocks with their breakpoints, a message-level breakpoint on the last block, metadata and service_tier', () => {
    const body = build({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'text', text: 'B' }] },
        { role: 'user', content: 'hi', cache_control: { type: 'ephemeral' } },
      ],
      metadata: { user_id: 'u-1' },
      service_tier: 'auto',
    });
    expect(body.system).toEqual([{ type: 'text', text: 'A', cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'text', text: 'B' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }]);
    expect(body).toMatchObject({ metadata: { user_id: 'u-1' }, service_tier: 'auto' });
  });

  it('and an OpenAI-style upstream gets none of it, but prompt_cache_key and prompt_cache_retention', () => {
    const body = JSON.parse(buildOpenAiRequest({
      request: {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }], cache_control: { type: 'ephemeral' } }],
        tools: [{ type: 'function', function: { name: 'f' }, cache_control: { type: 'ephemeral' } }],
        metadata: { user_id: 'u-1' },
        service_tier: 'auto',
        prompt_cache_key: 'k-1',
        prompt_cache_retention: '24h',
      },
      upstreamModel: 'gpt-x', maxTokens: 10, apiKey: 'k', stream: false,
    }).body);
    expect(JSON.stringify(body)).not.toMatch(/cache_control|metadata|service_tier/);
    expect(body).toMatchObject({ prompt_cache_key: 'k-1', prompt_cache_retention: '24h', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [{ type: 'function', function: { name: 'f' } }] });
  });
});
