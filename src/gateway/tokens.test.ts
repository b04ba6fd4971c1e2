import { describe, expect, it } from 'vitest';
import { countCompletionTokens, countPromptTokens, countTextTokens, promptTokenBound } from './tokens.js';
import type { ChatMessage } from './types.js';

const samples = [
  'Summarize the meeting notes in two sentences.',
  'Ünïcödé façade — naïve café, 東京都の天気は？ 🚀🚀🚀',
  'a'.repeat(5000),
  '{"json": [1, 2, 3], "nested": {"k": "v"}}\n\tindented\r\n',
  ' '.repeat(64),
  '',
];

describe('token counts', () => {
  it('bounds every prompt from above without tokenizing', async () => {
    for (const text of samples) {
      const messages: ChatMessage[] = [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: text },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ q: text }) } }] },
      ];
      expect(promptTokenBound(messages)).toBeGreaterThanOrEqual(await countPromptTokens(messages));
    }
  });

  it('counts text with the BPE tokenizer, plus framing per message', async () => {
    expect(await countTextTokens('')).toBe(0);
    expect(await countTextTokens('hello world')).toBe(2);
    const messages: ChatMessage[] = [{ role: 'user', content: 'hello world' }];
    expect(await countPromptTokens(messages)).toBe(2 + 3 + 3);
    expect(await countCompletionTokens('hello world', [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }])).toBe(
      2 + (await countTextTokens('f{}')),
    );
  });
});
