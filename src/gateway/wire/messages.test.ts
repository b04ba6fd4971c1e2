import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { NormalizedChunk } from '../providers/types.js';
import { fromMessagesRequest, MessagesStreamWriter, toAnthropicError, toMessageBody, toStopReason } from './messages.js';
import { parseMessagesBody } from './messages.schemas.js';

describe('fromMessagesRequest', () => {
  it('puts system first, tool results as tool messages ahead of the user text, tool_use as tool_calls', () => {
    const request = fromMessagesRequest(parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }],
      temperature: 0.5,
      stop_sequences: ['X'],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 'c1', name: 't', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'boom', is_error: true }, { type: 'text', text: 'and?' }] },
      ],
    }));
    expect(request).toMatchObject({
      model: 'm',
      max_tokens: 10,
      temperature: 1,
      stop: ['X'],
      tool_choice: 'required',
      parallel_tool_calls: false,
      tools: [{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }],
    });
    expect(request.messages).toEqual([
      // Two system blocks stay two blocks (joined, they were other tokens, and could carry no breakpoint).
      { role: 'system', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'calling', tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"a":1}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'boom', isError: true },
      { role: 'user', content: 'and?' },
    ]);
  });

  it('turns images into image_url parts (base64 as a data URL)', () => {
    const request = fromMessagesRequest(parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] }],
    }));
    expect(request.messages[0]!.content).toEqual([{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }]);
  });

  it('keeps the images of a tool result beside its text, in their order (an error result marked)', () => {
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };
    const request = fromMessagesRequest(parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'screenshot?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'shot', input: {} }, { type: 'tool_use', id: 'c2', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'the page' }, image, { type: 'text', text: 'below the fold' }] },
            { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }], is_error: true },
          ],
        },
      ],
    }));
    expect(request.messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [{ type: 'text', text: 'the page' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'below the fold' }],
      },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }], isError: true },
    ]);
  });

  it('keeps documents as document parts (title, context, citations as sent), whole', () => {
    const pdf = { type: 'document' as const, source: { type: 'base64' as const, media_type: 'application/pdf' as const, data: 'JVBERi0=' } };
    const request = fromMessagesRequest(parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ ...pdf, title: 'report.pdf', context: 'Q3', citations: { enabled: true } }, { type: 'text', text: 'Summarise it.' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: [pdf, { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'line one' }, title: 'a.txt' }] }] },
        { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'n.txt', context: 'from the meeting' }, { type: 'text', text: 'and?' }] },
      ],
    }));
    const text = { type: 'text', media_type: 'text/plain' };
    expect(request.messages).toEqual([
      { role: 'user', content: [{ ...pdf, title: 'report.pdf', context: 'Q3', citations: { enabled: true } }, { type: 'text', text: 'Summarise it.' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [pdf, { type: 'document', source: { ...text, data: 'line one' }, title: 'a.txt' }] },
      { role: 'user', content: [{ type: 'document', source: { ...text, data: 'notes' }, title: 'n.txt', context: 'from the meeting' }, { type: 'text', text: 'and?' }] },
    ]);
  });

  it('refuses documents by URL or from content blocks, and other media types, naming the field', () => {
    const refused = (source: unknown, param: string) =>
      expect(() => parseMessagesBody({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'document', source }] }] })).toThrow(expect.objectContaining({ param }));
    refused({ type: 'url', url: 'https://x/a.pdf' }, 'messages[0].content[0].source.type');
    refused({ type: 'content', content: [{ type: 'text', text: 'x' }] }, 'messages[0].content[0].source.type');
    refused({ type: 'base64', media_type: 'application/msword', data: 'AA==' }, 'messages[0].content[0].source.media_type');
  });

  it('refuses an image or a document in an assistant turn naming the block', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } };
    const document = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } };
    for (const block of [image, document]) {
      const body = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'see' }, block] }] };
      expect(() => parseMessagesBody(body), block.type).toThrow(expect.objectContaining({ code: 'bad_request', param: 'messages[1].content[1]', message: expect.stringContaining(`${block.type} is taken in user messages and tool results only, not in assistant messages`) }));
    }
  });

  it('keeps an earlier answer\'s thinking blocks with their turn, unchanged; refuses them in a user turn', () => {
    const request = fromMessagesRequest(parseMessagesBody({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me see.', signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'more' },
      ],
    }));
    expect(request.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning: [{ type: 'thinking', thinking: 'Let me see.', signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }] },
      { role: 'user', content: 'more' },
    ]);
    expect(request).not.toHaveProperty('reasoning');
    expect(() => parseMessagesBody({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'thinking', thinking: '' }] }] })).toThrow(
      expect.objectContaining({ param: 'messages[0].content[1].type', message: expect.stringContaining('assistant turns') }),
    );
  });

  it('asks for thinking with the budget given; refuses a budget not below max_tokens, under 1,024 or of an unknown type, naming the field', () => {
    const body = (thinking: unknown, maxTokens = 8000) => ({ model: 'm', max_tokens: maxTokens, thinking, messages: [{ role: 'user', content: 'q' }] });
    expect(fromMessagesRequest(parseMessagesBody(body({ type: 'enabled', budget_tokens: 2048 }))).reasoning).toEqual({ budgetTokens: 2048 });
    expect(fromMessagesRequest(parseMessagesBody(body({ type: 'disabled' })))).not.toHaveProperty('reasoning');
    expect(() => parseMessagesBody(body({ type: 'enabled', budget_tokens: 8000 }))).toThrow(expect.objectContaining({ param: 'thinking.budget_tokens', message: expect.stringContaining('less than max_tokens') }));
    expect(() => parseMessagesBody(body({ type: 'enabled', budget_tokens: 512 }))).toThrow(expect.objectContaining({ param: 'thinking.budget_tokens', message: expect.stringContaining('at least 1024') }));
    expect(() => parseMessagesBody(body({ type: 'enabled' }))).toThrow(expect.objectContaining({ param: 'thinking.budget_tokens' }));
    expect(() => parseMessagesBody(body({ type: 'sometimes' }))).toThrow(expect.objectContaining({ param: 'thinking.type', message: expect.stringContaining('enabled, disabled') }));
  });

  it('refuses a tool result in an assistant turn and a tool call in a user turn naming the block, not dropping it', () => {
    const result = { type: 'tool_result', tool_use_id: 'c1', content: 'done' };
    const call = { type: 'tool_use', id: 'c1', name: 'f', input: {} };
    const cases = [
      { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'text', text: 'a' }, result] }], param: 'messages[1].content[1].type', turn: 'tool_result blocks belong to user turns' },
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }, call] }], param: 'messages[0].content[1].type', turn: 'tool_use blocks belong to assistant turns' },
    ];
    for (const { messages, param, turn } of cases) {
      expect(() => parseMessagesBody({ model: 'm', max_tokens: 1, messages }), param).toThrow(expect.objectContaining({ code: 'bad_request', param, message: expect.stringContaining(turn) }));
    }
  });

  it('refuses server tools and unknown block types naming the field', () => {
    expect(() => parseMessagesBody({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'server_tool_use', id: 'x', name: 'web_search', input: {} }] }] })).toThrow(
      expect.objectContaining({ param: 'messages[0].content[0].type' }),
    );
    expect(() => parseMessagesBody({ model: 'm', max_tokens: 1, tools: [{ type: 'web_search_20250305', name: 'web', input_schema: {} }], messages: [{ role: 'user', content: 'x' }] })).toThrow(
      expect.objectContaining({ param: 'tools[0].type' }),
    );
  });
});

describe('toMessageBody and stop reasons', () => {
  it.each([
    ['stop', undefined, 'end_turn'],
    ['length', undefined, 'max_tokens'],
    ['tool_calls', undefined, 'tool_use'],
    ['stop', 'END', 'stop_sequence'],
  ])('maps %s (sequence %s) to %s', (finish, sequence, reason) => {
    expect(toStopReason(finish, sequence)).toBe(reason);
  });

  it('shapes a result as a message with text then tool_use blocks', () => {
    const body = toMessageBody({
      id: 'chatcmpl-abc', model: 'm', provider: 'p', upstreamModel: 'u', content: 'hi',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"x":2}' } }],
      finishReason: 'tool_calls', usage: { inputTokens: 3, outputTokens: 4, estimated: false }, cost: 0, attempts: 1, upstreamMs: 1,
    });
    expect(body).toEqual({
      id: 'msg_abc', type: 'message', role: 'assistant', model: 'm',
      content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', id: 'c1', name: 't', input: { x: 2 } }],
      stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 4 },
    });
  });
});

describe('thinking in answers', () => {
  const events = (text: string) => [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]!) as Record<string, unknown> }));
  const thinking = { type: 'thinking' as const, thinking: 'Weigh it.', signature: 'sig-1' };
  const redacted = { type: 'redacted_thinking' as const, data: 'opaque' };

  it('puts the thinking blocks first in a whole answer, signatures included', () => {
    const body = toMessageBody({
      id: 'chatcmpl-abc', model: 'm', provider: 'p', upstreamModel: 'u', content: 'Sunny.', toolCalls: [], reasoning: [thinking, redacted],
      finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 4, estimated: false }, cost: 0, attempts: 1, upstreamMs: 1,
    });
    expect(body.content).toEqual([thinking, redacted, { type: 'text', text: 'Sunny.' }]);
  });

  it('streams a thinking block (thinking_delta, signature_delta) and a redacted one before the text block', () => {
    const writer = new MessagesStreamWriter({ id: 'chatcmpl-1', model: 'm' });
    const chunks: NormalizedChunk[] = [
      { delta: { role: 'assistant' }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: '' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: 'Weigh' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: ' it.' } }, finishReason: null },
      { delta: { reasoning: { index: 0, signature: 'sig-1' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { content: 'Sunny.' }, finishReason: null },
      { delta: {}, finishReason: 'stop' },
      { delta: {}, finishReason: null, usage: { inputTokens: 5, outputTokens: 6 } },
    ];
    const out = events(writer.start() + chunks.map((chunk) => writer.write(chunk)).join(''));
    expect(out.slice(2, 11)).toEqual([
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Weigh' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' it.' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: redacted } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Sunny.' } } },
    ]);
  });
});

describe('MessagesStreamWriter', () => {
  const events = (text: string) => [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]!) as Record<string, unknown> }));

  it('writes the Messages event sequence: start, ping, a text block, a tool block with input_json_delta, message_delta with usage, stop', () => {
    const writer = new MessagesStreamWriter({ id: 'chatcmpl-1', model: 'm' });
    const chunks: NormalizedChunk[] = [
      { delta: { role: 'assistant' }, finishReason: null },
      { delta: { content: 'Hel' }, finishReason: null },
      { delta: { content: 'lo' }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 't', arguments: '' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, finishReason: null },
      { delta: {}, finishReason: 'tool_calls' },
      { delta: {}, finishReason: null, usage: { inputTokens: 5, outputTokens: 6 }, cost: 0.25 },
    ];
    const out = events(writer.start() + chunks.map((chunk) => writer.write(chunk)).join(''));
    expect(out.map((e) => e.event)).toEqual([
      'message_start', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    expect(out[0]!.data).toMatchObject({ message: { id: 'msg_1', model: 'm', role: 'assistant', content: [] } });
    expect(out[6]!.data).toEqual({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'c1', name: 't', input: {} } });
    expect(out[8]!.data).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '1}' } });
    expect(out[10]!.data).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 5, output_tokens: 6, cost: 0.25 } });
  });

  it('reports a failure as an error event in Anthropic shape', () => {
    const writer = new MessagesStreamWriter({ id: 'chatcmpl-1', model: 'm' });
    expect(events(writer.error(new AppError('provider_error', 'upstream broke')))).toEqual([
      { event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'upstream broke' } } },
    ]);
  });
});

describe('toAnthropicError', () => {
  it.each([
    ['unauthorized', 401, 'authentication_error'],
    ['bad_request', 400, 'invalid_request_error'],
    ['dlp_blocked', 403, 'permission_error'],
    ['budget_exceeded', 402, 'billing_error'],
    ['rate_limited', 429, 'rate_limit_error'],
    ['payload_too_large', 413, 'request_too_large'],
    ['provider_unavailable', 529, 'overloaded_error'],
    ['internal_error', 500, 'api_error'],
  ] as const)('renders %s as %s %s', (code, status, type) => {
    expect(toAnthropicError(new AppError(code, 'm'))).toEqual({ status, body: { type: 'error', error: { type, message: 'm' } } });
  });
});

describe('message_start usage', () => {
  it("reports the upstream's prompt counts when they came before the answer, the 1-hour writes split out", () => {
    const promptUsage = { inputTokens: 100, outputTokens: 0, cacheReadTokens: 60, cacheWriteTokens: 30, cacheWrite1hTokens: 10 };
    const start = new MessagesStreamWriter({ id: 'chatcmpl-1', model: 'm', promptUsage }).start();
    const message = JSON.parse(start.split('\n')[1]!.slice('data: '.length)).message;
    expect(message.usage).toEqual({
      input_tokens: 10, output_tokens: 0, cache_read_input_tokens: 60, cache_creation_input_tokens: 30,
      cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 10 },
    });
    // Without them (an OpenAI-style upstream counts only at the end): zeros, as before.
    expect(new MessagesStreamWriter({ id: 'chatcmpl-1', model: 'm' }).start()).toContain('"usage":{"input_tokens":0,"output_tokens":0}');
  });
});
