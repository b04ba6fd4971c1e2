import { describe, expect, it } from 'vitest';
import { sseEventWriter, toCompletionBody } from './openai-format.js';
import type { ChatCompletionResult } from './types.js';

const result: ChatCompletionResult = {
  id: 'chatcmpl-1', model: 'm', provider: 'p', upstreamModel: 'u', content: 'Sunny.', toolCalls: [], finishReason: 'stop',
  usage: { inputTokens: 1, outputTokens: 2, estimated: false }, cost: 0, attempts: 1, upstreamMs: 1,
};

describe('thinking in chat completions', () => {
  it('shows the thinking text as reasoning_content, never the signatures or redacted data', () => {
    const body = toCompletionBody({ ...result, reasoning: [{ type: 'thinking', thinking: 'Weigh it.', signature: 'sig-1' }, { type: 'redacted_thinking', data: 'opaque' }] }, 1);
    expect(body.choices[0]!.message).toEqual({ role: 'assistant', content: 'Sunny.', reasoning_content: 'Weigh it.' });
    expect(toCompletionBody(result, 1).choices[0]!.message).not.toHaveProperty('reasoning_content');
  });

  it('streams thinking as reasoning_content deltas and writes nothing for a signature or a redacted block', () => {
    const write = sseEventWriter({ id: 'chatcmpl-1', created: 1, model: 'm', chunks: (async function* () {})(), upstreamMs: 0 }, false);
    const deltas = [
      { delta: { reasoning: { index: 0, thinking: '' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: 'Weigh' } }, finishReason: null },
      { delta: { reasoning: { index: 0, signature: 'sig-1' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { content: 'Sunny.' }, finishReason: null },
    ].map((chunk) => write(chunk));
    const parsed = deltas.map((line) => (line === undefined ? undefined : JSON.parse(line.slice('data: '.length)).choices[0].delta));
    expect(parsed).toEqual([{ role: 'assistant' }, { reasoning_content: 'Weigh' }, undefined, undefined, { content: 'Sunny.' }]);
  });
});
