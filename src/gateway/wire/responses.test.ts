import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { NormalizedChunk } from '../providers/types.js';
import { fromResponsesRequest, inputItems, ResponsesStreamWriter, toResponseObject, type ResponseIds } from './responses.js';
import { parseResponsesBody } from './responses.schemas.js';

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

  it('refuses hosted tools naming the field', () => {
    expect(() => parseResponsesBody({ model: 'm', input: 'x', tools: [{ type: 'file_search' }] })).toThrow(expect.objectContaining({ param: 'tools[0].type' }));
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

  it('writes nothing for thinking (no reasoning items, as OpenAI without summaries), and the answer after it as usual', () => {
    const writer = new ResponsesStreamWriter(head, counterIds());
    expect(writer.write({ delta: { reasoning: { index: 0, thinking: 'Weigh it.' } }, finishReason: null })).toBe('');
    expect(writer.write({ delta: { reasoning: { index: 0, signature: 'sig' } }, finishReason: null })).toBe('');
    const events = parse(writer.start() + writer.write({ delta: { content: 'a' }, finishReason: null }));
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta']);
    expect(writer.final().output).toEqual([expect.objectContaining({ type: 'message', id: 'msg_1' })]);
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
