import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { NormalizedChunk } from '../providers/types.js';
import { sealReasoning, unsealReasoning } from '../reasoning.js';
import { fromResponsesRequest, inputItems, ResponsesStreamWriter, toResponseObject, type ResponseIds } from './responses.js';
import { MAX_INPUT_ITEMS, parseResponsesBody } from './responses.schemas.js';

function counterIds(): ResponseIds {
  let n = 0;
  return { item: (prefix) => `${prefix}_${++n}` };
}

describe('fromResponsesRequest', () => {
  it('puts instructions first, joins function calls to the assistant turn they follow, outputs as tool messages', () => {
    const body = parseResponsesBody({
      model: 'm',
      instructions: 'Be brief',
      max_output_tokens: 50,
      input: [
        { role: 'user', content: 'q' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'checking' }] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'c2', name: 'g', arguments: '{"a":1}' },
        { type: 'function_call_output', call_id: 'c1', output: 'one' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'two' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'https://x/y.png' }] },
      ],
      text: { format: { type: 'json_object' } },
    });
    const request = fromResponsesRequest(body, inputItems(body.input) as never);
    expect(request).toMatchObject({ model: 'm', max_tokens: 50, response_format: { type: 'json_object' } });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'checking',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'g', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
    ]);
  });

  it('keeps the images of a function call output as content parts of its tool message', () => {
    const body = parseResponsesBody({
      model: 'm',
      input: [
        { type: 'function_call', call_id: 'c1', name: 'shot', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'the page' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' }] },
      ],
    });
    expect(fromResponsesRequest(body, inputItems(body.input) as never).messages[1]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: [{ type: 'text', text: 'the page' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }],
    });
    expect(() => parseResponsesBody({ model: 'm', input: [{ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_audio', data: 'AAAA' }] }] })).toThrow(
      expect.objectContaining({ param: 'input[0].output[0].type', message: expect.stringContaining('input_image, input_file') }),
    );
    // A file is taken as its bytes only: the gateway has no files API.
    expect(() => parseResponsesBody({ model: 'm', input: [{ type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_file', file_id: 'f' }] }] })).toThrow(
      expect.objectContaining({ param: 'input[0].output[0].file_data', message: expect.stringContaining('file ids and URLs are not supported') }),
    );
  });

  it('refuses an image or a file in a system, developer or assistant message naming the part, instead of dropping it', () => {
    const image = { type: 'input_image', image_url: 'https://example.com/a.png' };
    const file = { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=' };
    for (const [role, part] of [['developer', image], ['system', file], ['assistant', image]] as const) {
      const body = { model: 'm', input: [{ role: 'user', content: 'hi' }, { role, content: [{ type: 'input_text', text: 'see' }, part] }] };
      expect(() => parseResponsesBody(body), role).toThrow(expect.objectContaining({ code: 'bad_request', param: 'input[1].content[1]', message: expect.stringContaining(`not in ${role} messages`) }));
    }
    // In a user message they are taken.
    expect(parseResponsesBody({ model: 'm', input: [{ role: 'user', content: [image, file] }] }).input).toHaveLength(1);
  });

  it('gives the thinking a reasoning item seals to the assistant turn it comes in; ignores reasoning another server made; drops thinking with no turn', () => {
    const signed = [{ type: 'thinking' as const, thinking: 'Call the tool.', signature: 'sig' }];
    const body = parseResponsesBody({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'Call the tool.' }], encrypted_content: sealReasoning(signed) },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'one' },
        // OpenAI's own encrypted reasoning: accepted, not sent on.
        { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'Summed up.' }], encrypted_content: 'gAAAAABo-openai' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
        { role: 'user', content: 'again' },
        { type: 'reasoning', summary: [], encrypted_content: sealReasoning([{ type: 'redacted_thinking', data: 'opaque' }]) },
        { type: 'message', role: 'assistant', content: 'second' },
        { role: 'user', content: 'and' },
        // Thinking with nothing after it in its turn.
        { type: 'reasoning', summary: [], encrypted_content: sealReasoning(signed) },
      ],
    });
    expect(fromResponsesRequest(body, inputItems(body.input) as never).messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, reasoning: signed, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'second', reasoning: [{ type: 'redacted_thinking', data: 'opaque' }] },
      { role: 'user', content: 'and' },
    ]);
  });

  it('refuses an encrypted_content that claims to be this gateway\'s but carries no signed thinking, naming the field', () => {
    for (const sealed of ['aiwr1.not-json', sealReasoning([{ type: 'thinking', thinking: 'x', signature: 'sig' }])!.slice(0, 12), `aiwr1.${Buffer.from('[{"type":"thinking","thinking":"x","signature":""}]').toString('base64url')}`]) {
      expect(() => parseResponsesBody({ model: 'm', input: [{ type: 'reasoning', summary: [], encrypted_content: sealed }] }), sealed).toThrow(
        expect.objectContaining({ code: 'bad_request', param: 'input[0].encrypted_content' }),
      );
    }
  });

  it('refuses hosted tools naming the field', () => {
    expect(() => parseResponsesBody({ model: 'm', input: 'x', tools: [{ type: 'file_search' }] })).toThrow(expect.objectContaining({ param: 'tools[0].type' }));
  });

  it(`takes at most ${MAX_INPUT_ITEMS} input items, item_references included, and names input beyond`, () => {
    const references = (n: number) => Array.from({ length: n }, () => ({ type: 'item_reference', id: 'msg_1' }));
    expect(parseResponsesBody({ model: 'm', input: references(MAX_INPUT_ITEMS) }).input).toHaveLength(MAX_INPUT_ITEMS);
    expect(() => parseResponsesBody({ model: 'm', input: references(MAX_INPUT_ITEMS + 1) })).toThrow(expect.objectContaining({ code: 'bad_request', param: 'input' }));
  });
});

describe('toResponseObject', () => {
  const head = { id: 'resp_1', createdAt: 5, model: 'm', body: parseResponsesBody({ model: 'm', input: 'x' }) };
  const result = { id: 'c', model: 'm', provider: 'p', upstreamModel: 'u', content: 'hi', toolCalls: [{ id: 'call', type: 'function' as const, function: { name: 'f', arguments: '{}' } }], finishReason: 'tool_calls', usage: { inputTokens: 2, outputTokens: 3, estimated: false }, cost: 0.5, attempts: 1, upstreamMs: 1 };

  it('lists a message then the function calls, with usage and the store default', () => {
    expect(toResponseObject(head, result, counterIds())).toMatchObject({
      id: 'resp_1', object: 'response', status: 'completed', store: true, output_text: 'hi',
      output: [
        { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] },
        { type: 'function_call', id: 'fc_2', call_id: 'call', name: 'f', arguments: '{}' },
      ],
      usage: { input_tokens: 2, output_tokens: 3, total_tokens: 5, cost: 0.5 },
    });
  });

  it('puts the thinking first as a reasoning item, its text as reasoning_text and its signed blocks sealed', () => {
    const reasoning = [{ type: 'thinking' as const, thinking: 'Think.', signature: 'sig' }, { type: 'redacted_thinking' as const, data: 'opaque' }];
    const response = toResponseObject(head, { ...result, reasoning }, counterIds());
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    const item = response.output[0] as { encrypted_content: string };
    expect(item).toMatchObject({ type: 'reasoning', id: 'rs_1', status: 'completed', summary: [], content: [{ type: 'reasoning_text', text: 'Think.' }] });
    expect(unsealReasoning(item.encrypted_content)).toEqual(reasoning);
    expect(response.output_text).toBe('hi');
  });

  it('puts the thinking in the reasoning item\'s summary when the request asked for one', () => {
    const asked = { ...head, body: parseResponsesBody({ model: 'm', input: 'x', reasoning: { summary: 'detailed' } }) };
    const response = toResponseObject(asked, { ...result, reasoning: [{ type: 'thinking', thinking: 'Think.', signature: 'sig' }] }, counterIds());
    expect(response.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think.' }], content: [] });
    expect(() => parseResponsesBody({ model: 'm', input: 'x', reasoning: { summary: 'brief' } })).toThrow(expect.objectContaining({ param: 'reasoning.summary' }));
  });

  it('is incomplete when the output bound cut it', () => {
    expect(toResponseObject(head, { ...result, finishReason: 'length' }, counterIds())).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });
});

describe('ResponsesStreamWriter', () => {
  const head = { id: 'resp_1', createdAt: 5, model: 'm', body: parseResponsesBody({ model: 'm', input: 'x' }) };
  const parse = (text: string) => [...text.matchAll(/event: ([\w.]+)\ndata: (.*)\n\n/g)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) as Record<string, unknown> }));

  it('writes message and function_call items in order, numbering every event', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    const chunks: NormalizedChunk[] = [
      { delta: { role: 'assistant' }, finishReason: null },
      { delta: { content: 'a' }, finishReason: null },
      { delta: { content: 'b' }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, finishReason: null },
      { delta: {}, finishReason: 'tool_calls' },
      { delta: {}, finishReason: null, usage: { inputTokens: 1, outputTokens: 2 } },
    ];
    let text = writer.start() + chunks.map((chunk) => writer.write(chunk)).join('');
    const final = writer.final();
    text += writer.finish(JSON.stringify(final));
    const events = parse(text);
    expect(events.map((e) => e.event)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[6]!.data).toMatchObject({ item_id: 'msg_1', output_index: 0, text: 'ab' });
    expect(events[11]!.data).toMatchObject({ item_id: 'fc_2', output_index: 1, arguments: '{}' });
    expect(events.at(-1)!.data).toMatchObject({ response: { status: 'completed', usage: { input_tokens: 1, output_tokens: 2 }, output: [{ id: 'msg_1', status: 'completed' }, { id: 'fc_2', status: 'completed' }] } });
  });

  it('closes an item left open by a stream without a finish reason before the final response is taken', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    let text = writer.start() + writer.write({ delta: { content: 'half' }, finishReason: null });
    const final = writer.final();
    // What is stored is this object: its item must read as completed, as the client's does.
    expect(final.output).toEqual([expect.objectContaining({ id: 'msg_1', status: 'completed' })]);
    text += writer.finish(JSON.stringify(final));
    const events = parse(text);
    expect(events.slice(-4).map((e) => e.event)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    // The spliced event reads exactly as the writer's own events are written.
    expect(text.endsWith(`data: ${JSON.stringify({ type: 'response.completed', response: final, sequence_number: events.length - 1 })}\n\n`)).toBe(true);
  });

  it('writes thinking as a reasoning item first: a reasoning_text part per thinking block, its signed blocks sealed when it closes', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    const chunks: NormalizedChunk[] = [
      { delta: { reasoning: { index: 0, thinking: 'Weigh ' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: 'it.' } }, finishReason: null },
      { delta: { reasoning: { index: 0, signature: 'sig' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { reasoning: { index: 2, thinking: 'Then answer.', signature: 'sig2' } }, finishReason: null },
      { delta: { content: 'a' }, finishReason: null },
      { delta: {}, finishReason: 'stop' },
    ];
    const events = parse(writer.start() + chunks.map((chunk) => writer.write(chunk)).join(''));
    expect(events.map((e) => e.event)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added',
      'response.content_part.added', 'response.reasoning_text.delta', 'response.reasoning_text.delta', 'response.reasoning_text.done', 'response.content_part.done',
      'response.content_part.added', 'response.reasoning_text.delta', 'response.reasoning_text.done', 'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
    ]);
    expect(events[2]!.data).toMatchObject({ output_index: 0, item: { type: 'reasoning', id: 'rs_1', status: 'in_progress', content: [], encrypted_content: null } });
    expect(events[6]!.data).toMatchObject({ item_id: 'rs_1', output_index: 0, content_index: 0, text: 'Weigh it.' });
    expect(events[10]!.data).toMatchObject({ item_id: 'rs_1', content_index: 1, text: 'Then answer.' });
    const item = events[12]!.data.item as { encrypted_content: string };
    expect(item).toMatchObject({ type: 'reasoning', status: 'completed', summary: [], content: [{ type: 'reasoning_text', text: 'Weigh it.' }, { type: 'reasoning_text', text: 'Then answer.' }] });
    expect(unsealReasoning(item.encrypted_content)).toEqual([
      { type: 'thinking', thinking: 'Weigh it.', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'thinking', thinking: 'Then answer.', signature: 'sig2' },
    ]);
    expect(events[13]!.data).toMatchObject({ output_index: 1, item: { type: 'message', id: 'msg_2' } });
    expect(writer.final().output.map((out) => out.type)).toEqual(['reasoning', 'message']);
  });

  it('writes the thinking as summary parts (reasoning_summary_* events) when the request asked for a summary', () => {
    const summaryHead = { ...head, body: parseResponsesBody({ model: 'm', input: 'x', reasoning: { effort: 'low', summary: 'auto' } }) };
    const writer = new ResponsesStreamWriter(summaryHead, counterIds());
    const text = [
      writer.write({ delta: { reasoning: { index: 0, thinking: 'Weigh ' } }, finishReason: null }),
      writer.write({ delta: { reasoning: { index: 0, thinking: 'it.', signature: 'sig' } }, finishReason: null }),
      writer.write({ delta: { content: 'a' }, finishReason: null }),
    ].join('');
    const events = parse(text);
    expect(events.slice(0, 7).map((e) => e.event)).toEqual([
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
    ]);
    expect(events[1]!.data).toMatchObject({ item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } });
    expect(events[4]!.data).toMatchObject({ summary_index: 0, text: 'Weigh it.' });
    const final = writer.final();
    expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Weigh it.' }], content: [] });
    expect(final.reasoning).toEqual({ effort: 'low', summary: 'auto' });
  });

  it('shows unsigned thinking (an OpenAI-compatible server\'s) with no encrypted_content, and closes the item when a tool call follows', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    const text = [
      writer.write({ delta: { reasoning: { index: 0, thinking: 'Look it up.' } }, finishReason: null }),
      writer.write({ delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] }, finishReason: null }),
    ].join('');
    expect(parse(text).map((e) => e.event)).toEqual([
      'response.output_item.added', 'response.content_part.added', 'response.reasoning_text.delta', 'response.reasoning_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta',
    ]);
    expect(writer.final().output[0]).toMatchObject({ type: 'reasoning', content: [{ text: 'Look it up.' }], encrypted_content: null });
  });

  it('reports a failure as response.failed then an error event', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    const events = parse(writer.error(new AppError('provider_error', 'cut')));
    expect(events).toEqual([
      { event: 'response.failed', data: expect.objectContaining({ response: expect.objectContaining({ status: 'failed', error: { code: 'provider_error', message: 'cut' } }) }) },
      { event: 'error', data: expect.objectContaining({ code: 'provider_error', message: 'cut', error: expect.objectContaining({ code: 'provider_error' }) }) },
    ]);
  });
});
