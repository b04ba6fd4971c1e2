import { describe, expect, it } from 'vitest';
import { StreamCapture, replayChunks, resultOf } from './cache-answers.js';
import type { NormalizedChunk } from './providers/types.js';

const base = { storedAt: 1, model: 'm', provider: 'p', upstreamModel: 'u', inputTokens: 3, outputTokens: 4 };

describe('StreamCapture and replayChunks', () => {
  it('joins streamed text and merges tool call deltas by index, and replays them as chunks', async () => {
    const capture = new StreamCapture();
    const chunks: NormalizedChunk[] = [
      { delta: { role: 'assistant' }, finishReason: null },
      { delta: { content: 'Let me ' }, finishReason: null },
      { delta: { content: 'check.' }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_', arguments: '{"ci' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":"Oslo"}' } }] }, finishReason: null },
      { delta: { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'now', arguments: '{}' } }] }, finishReason: null },
      { delta: {}, finishReason: 'tool_calls' },
    ];
    for (const chunk of chunks) capture.take(chunk);
    const answer = capture.answer(base);
    expect(answer).toMatchObject({
      content: 'Let me check.',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { id: 'call_2', type: 'function', function: { name: 'now', arguments: '{}' } },
      ],
    });

    const replayed: NormalizedChunk[] = [];
    for await (const chunk of replayChunks(answer)) replayed.push(chunk);
    const again = new StreamCapture();
    for (const chunk of replayed) again.take(chunk);
    expect(again.answer(base)).toEqual(answer);
    expect(replayed.at(-1)).toEqual({ delta: {}, finishReason: null, usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('keeps content null for an answer of tool calls only', () => {
    const capture = new StreamCapture();
    capture.take({ delta: { tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finishReason: 'tool_calls' });
    expect(capture.answer(base).content).toBeNull();
  });
});

describe('thinking in the cache', () => {
  it('captures streamed thinking blocks with their signatures and replays them first', async () => {
    const capture = new StreamCapture();
    const chunks: NormalizedChunk[] = [
      { delta: { reasoning: { index: 0, thinking: '' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: 'Weigh' } }, finishReason: null },
      { delta: { reasoning: { index: 0, thinking: ' it.' } }, finishReason: null },
      { delta: { reasoning: { index: 0, signature: 'sig-1' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { content: 'Sunny.' }, finishReason: null },
      { delta: {}, finishReason: 'stop' },
    ];
    for (const chunk of chunks) capture.take(chunk);
    const answer = capture.answer(base);
    expect(answer.reasoning).toEqual([{ type: 'thinking', thinking: 'Weigh it.', signature: 'sig-1' }, { type: 'redacted_thinking', data: 'opaque' }]);
    const replayed: NormalizedChunk[] = [];
    for await (const chunk of replayChunks(answer)) replayed.push(chunk);
    expect(replayed.slice(0, 3)).toEqual([
      { delta: { reasoning: { index: 0, thinking: 'Weigh it.', signature: 'sig-1' } }, finishReason: null },
      { delta: { reasoning: { index: 1, redacted: 'opaque' } }, finishReason: null },
      { delta: { content: 'Sunny.' }, finishReason: null },
    ]);
    expect(resultOf(answer, 'chatcmpl-x').reasoning).toEqual(answer.reasoning);
    expect(new StreamCapture().answer(base)).not.toHaveProperty('reasoning');
  });
});
