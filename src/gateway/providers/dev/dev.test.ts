import { afterAll, describe, expect, it } from 'vitest';
import { BpeCounter } from '../../bpe-count.js';
import type { ChatCompletionRequest } from '../../types.js';
import { devComplete, devToolCalls } from './index.js';

const bpe = new BpeCounter();
afterAll(() => bpe.close());

const writeFile = { type: 'function' as const, function: { name: 'filesystem__write_file', parameters: { type: 'object' } } };
const listDir = { type: 'function' as const, function: { name: 'filesystem__list_directory', parameters: { type: 'object' } } };

const request = (system: string, extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'dev',
  messages: [{ role: 'system', content: system }, { role: 'user', content: 'Run now.' }],
  tools: [writeFile, listDir],
  ...extra,
});

describe('the dev provider with tools', () => {
  it('calls the offered tool the prompt names, with the JSON object after its name', () => {
    expect(devToolCalls(request('Save it: filesystem__write_file {"path": "notes.txt", "content": "a {b} \\"c\\""} then stop.'))).toEqual([
      { id: 'call_dev_1', type: 'function', function: { name: 'filesystem__write_file', arguments: '{"path": "notes.txt", "content": "a {b} \\"c\\""}' } },
    ]);
  });

  it('calls a named tool with {} when no JSON object follows', () => {
    expect(devToolCalls(request('Use filesystem__list_directory please.'))[0]?.function.arguments).toBe('{}');
  });

  it('calls nothing when the prompt names no offered tool, or tools were already called', () => {
    expect(devToolCalls(request('Say hello.'))).toEqual([]);
    expect(devToolCalls(request('filesystem__write_file {}', { tools: undefined }))).toEqual([]);
    const after = request('filesystem__write_file {}', {
      messages: [
        { role: 'system', content: 'filesystem__write_file {}' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'filesystem__write_file', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'Wrote notes.txt' },
      ],
    });
    expect(devToolCalls(after)).toEqual([]);
  });

  it('answers with the tool results after the calls', async () => {
    const completion = await devComplete(request('x', {
      messages: [
        { role: 'system', content: 'filesystem__write_file {}' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'filesystem__write_file', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'Tool call not run: a person denied it.' },
      ],
    }), 100, bpe);
    expect(completion).toMatchObject({ content: '[dev-echo] Tool call not run: a person denied it.', toolCalls: [], finishReason: 'stop' });
  });
});
