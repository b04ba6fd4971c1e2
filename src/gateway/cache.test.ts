import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { MAX_ENTRY_BYTES, MemoryResponseCache, cacheKey, canonicalJson, effectiveMaxAge, parseCacheControl, type CachedAnswer } from './cache.js';

const answer = (content: string): CachedAnswer => ({
  storedAt: 0, model: 'm', provider: 'p', upstreamModel: 'u', content, toolCalls: [], finishReason: 'stop', inputTokens: 1, outputTokens: 1,
});

describe('parseCacheControl', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['private', undefined],
    ['max-age=60', { noStore: false, maxAgeSeconds: 60 }],
    ['Max-Age=0', { noStore: false, maxAgeSeconds: 0 }],
    ['max-age=60, no-store', { noStore: true, maxAgeSeconds: 60 }],
    ['no-store', { noStore: true, maxAgeSeconds: undefined }],
    ['max-age=-5', undefined],
    ['max-age=abc', undefined],
  ])('%j -> %j', (header, expected) => {
    expect(parseCacheControl(header)).toEqual(expected);
  });
});

describe('effectiveMaxAge', () => {
  it('takes the request, else the model default; no-store is 0; capped at a day', () => {
    expect(effectiveMaxAge(undefined, 30)).toBe(30);
    expect(effectiveMaxAge({ noStore: false, maxAgeSeconds: 5 }, 30)).toBe(5);
    expect(effectiveMaxAge({ noStore: true, maxAgeSeconds: 5 }, 30)).toBe(0);
    expect(effectiveMaxAge({ noStore: false, maxAgeSeconds: 10 ** 9 }, 0)).toBe(86_400);
  });
});

describe('cache keys', () => {
  it('canonical JSON ignores key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: undefined, w: null }] })).toBe('{"a":[{"w":null,"y":2}],"b":1}');
  });

  it('equal requests share a key whatever their key order or stream flag; organizations never do', () => {
    const a = cacheKey('org-1', { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0, stream: true });
    const b = cacheKey('org-1', { temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm', stream: false });
    expect(a).toBe(b);
    expect(cacheKey('org-2', { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 })).not.toBe(a);
    expect(cacheKey('org-1', { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 1 })).not.toBe(a);
    expect(a.startsWith('gwcache:org-1:')).toBe(true);
  });
});

describe('MemoryResponseCache', () => {
  it('expires entries by the clock', async () => {
    const clock = new ManualClock(new Date(0));
    const cache = new MemoryResponseCache(clock);
    await cache.set('k', answer('a'), 10);
    clock.advance(9_999);
    expect(await cache.get('k')).toMatchObject({ content: 'a' });
    clock.advance(1);
    expect(await cache.get('k')).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('evicts the least recently used entries beyond its byte bound', async () => {
    const entryBytes = 2 * JSON.stringify(answer('a'.repeat(100))).length + 1;
    const cache = new MemoryResponseCache(new ManualClock(new Date(0)), 3 * entryBytes);
    for (const key of ['a', 'b', 'c']) await cache.set(key, answer(key.repeat(100)), 60);
    await cache.get('a'); // a is now the most recently used
    await cache.set('d', answer('d'.repeat(100)), 60);
    expect(cache.size()).toBe(3 * entryBytes);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBeDefined();
    expect(await cache.get('d')).toBeDefined();
  });

  it('does not store an entry above the size bound', async () => {
    const cache = new MemoryResponseCache(new ManualClock(new Date(0)));
    await cache.set('big', answer('x'.repeat(MAX_ENTRY_BYTES)), 60);
    expect(await cache.get('big')).toBeUndefined();
  });
});
