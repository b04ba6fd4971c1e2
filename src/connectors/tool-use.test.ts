import { describe, expect, it } from 'vitest';
import { redact } from './mcp-client.js';
import { functionNameFor, resultText, TOOL_RESULT_MAX_CHARS, truncate } from './tool-use.js';

describe('function names', () => {
  it('namespaces a tool by its connector id', () => {
    expect(functionNameFor('github', 'create_issue')).toBe('github__create_issue');
  });

  it('keeps names inside the OpenAI alphabet and 64 characters, and unique', () => {
    const dotted = functionNameFor('fixture', 'files.read');
    expect(dotted).toMatch(/^fixture__files_read_[0-9a-f]{8}$/);
    expect(functionNameFor('fixture', 'files_read')).toBe('fixture__files_read');
    const long = functionNameFor('sequential-thinking', 'x'.repeat(80));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
    const taken = new Set(['fixture__files_read']);
    expect(functionNameFor('fixture', 'files_read', taken)).not.toBe('fixture__files_read');
  });
});

describe('tool results', () => {
  it('joins text blocks and marks other content', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
      ],
    });
    expect(text).toBe('first\n[image image/png]\ninside');
    expect(resultText({ content: [], structuredContent: { total: 3 } })).toBe('{"total":3}');
  });

  it(`cuts results above ${TOOL_RESULT_MAX_CHARS} characters and says how much was cut`, () => {
    expect(truncate('short', false)).toEqual({ text: 'short', isError: false, truncated: false });
    const long = truncate('y'.repeat(TOOL_RESULT_MAX_CHARS + 10), false);
    expect(long.truncated).toBe(true);
    expect(long.text).toBe(`${'y'.repeat(TOOL_RESULT_MAX_CHARS)}\n[truncated: 10 more characters]`);
  });

  it('redacts every secret value, longest first', () => {
    expect(redact('token abc123 and abc1234', { A: 'abc123', B: 'abc1234' })).toBe('token [redacted] and [redacted]');
    expect(redact('short ab', { A: 'ab' })).toBe('short ab');
  });
});
