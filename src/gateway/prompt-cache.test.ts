import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from './providers/anthropic/index.js';
import { buildOpenAiRequest } from './providers/openai/index.js';
import { promptCachedFor, promptCacheWrite, promptCacheWriteFor, withAutoBreakpoints } from './prompt-cache.js';
import type { ChatCompletionRequest } from './types.js';

const ephemeral = { type: 'ephemeral' as const };
const hour = { type: 'ephemeral' as const, ttl: '1h' as const };
const tool = (name: string) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } });
const target = (promptCaching: 'off' | 'auto', type: 'anthropic' | 'openai') => ({ model: { promptCaching }, provider: { type } }) as Parameters<typeof promptCachedFor>[1];

const loop: ChatCompletionRequest = {
  model: 'm',
  messages: [
    { role: 'system', content: 'Be careful.' },
    { role: 'user', content: 'Look it up.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'found' },
  ],
  tools: [tool('lookup'), tool('fetch')],
};

describe('promptCacheWrite', () => {
  it("is none without breakpoints, 5m with the default TTL's, 1h as soon as one asks for an hour, wherever they are", () => {
    expect(promptCacheWrite(loop)).toBe('none');
    expect(promptCacheWrite({ ...loop, tools: [tool('a'), { ...tool('b'), cache_control: ephemeral }] })).toBe('5m');
    expect(promptCacheWrite({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: ephemeral }, { type: 'text', text: 'y', cache_control: hour }] }] })).toBe('1h');
    expect(promptCacheWrite({ messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, cache_control: hour }] }] })).toBe('1h');
    expect(promptCacheWrite({ messages: [{ role: 'tool', tool_call_id: 'c', content: 'r', cache_control: ephemeral }] })).toBe('5m');
  });

  it("counts auto's breakpoints for a target whose model adds them, and only then", () => {
    expect(promptCacheWriteFor(loop, [target('off', 'anthropic'), target('auto', 'openai')])).toBe('none');
    expect(promptCacheWriteFor(loop, [target('off', 'openai'), target('auto', 'anthropic')])).toBe('5m');
    expect(promptCacheWriteFor({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: hour }] }] }, [target('off', 'openai')])).toBe('1h');
  });
});

describe('promptCaching: auto', () => {
  it('puts a breakpoint on the last tool, the last system message and the last user turn (here a tool result): three, within four', () => {
    const cached = withAutoBreakpoints(loop);
    expect(cached.tools!.map((t) => t.cache_control)).toEqual([undefined, ephemeral]);
    expect(cached.messages.map((m) => m.cache_control)).toEqual([ephemeral, undefined, undefined, ephemeral]);
    // The request itself is left as it was.
    expect(loop.messages.some((m) => m.cache_control)).toBe(false);
    const body = JSON.parse(buildAnthropicRequest({ request: cached, upstreamModel: 'u', maxTokens: 10, apiKey: undefined, stream: false }).body);
    expect(body.system).toEqual([{ type: 'text', text: 'Be careful.', cache_control: ephemeral }]);
    expect(body.tools[1].cache_control).toEqual(ephemeral);
    expect(body.messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: 'c1', content: 'found', cache_control: ephemeral }]);
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
  });

  it("leaves a request with a breakpoint of the client's alone, and adds only for an Anthropic target of an auto model", () => {
    const own = { ...loop, messages: [{ role: 'user' as const, content: 'x', cache_control: hour }] };
    expect(withAutoBreakpoints(own)).toBe(own);
    expect(promptCachedFor(loop, target('auto', 'openai'))).toBe(loop);
    expect(promptCachedFor(loop, target('off', 'anthropic'))).toBe(loop);
    expect(promptCachedFor(loop, target('auto', 'anthropic'))).not.toBe(loop);
  });

  it('puts no breakpoint on an empty turn (Anthropic refuses one on empty text)', () => {
    const request: Pick<ChatCompletionRequest, 'messages'> = { messages: [{ role: 'user', content: 'first' }, { role: 'user', content: '' }] };
    const cached = withAutoBreakpoints(request);
    expect(cached.messages.map((m) => m.cache_control)).toEqual([ephemeral, undefined]);
  });

  it('never reaches an OpenAI-style upstream: its breakpoints are stripped there', () => {
    const body = JSON.parse(buildOpenAiRequest({ request: withAutoBreakpoints(loop) as ChatCompletionRequest, upstreamModel: 'u', maxTokens: 10, apiKey: undefined, stream: false }).body);
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be careful.' });
  });
});
