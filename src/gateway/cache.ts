// Response cache of the chat gateway, opt-in per request in HTTP's words: `Cache-Control:
// max-age=N` accepts a stored answer up to N seconds old, `no-store` neither reads nor writes; a
// model's `cacheTtlSeconds` is the max-age of requests that say nothing. Entries are keyed by
// organization and a hash of the canonical request (model, messages, parameters), so two
// organizations never share one. Redis when configured (shared by every instance), else an
// in-process LRU; both bounded by entry size and lifetime, the LRU also by total bytes.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { SharedState } from '../redis.js';
import type { ReasoningBlock, ToolCall } from './types.js';

/** What a request asked of the cache (parsed Cache-Control). */
export interface CacheDirective {
  noStore: boolean;
  /** Oldest stored answer the client accepts, in seconds; undefined = the model's default. */
  maxAgeSeconds: number | undefined;
}

/** A stored answer: enough to answer again, plain or streamed. */
export interface CachedAnswer {
  /** Epoch ms when the upstream answered. */
  storedAt: number;
  model: string;
  provider: string;
  upstreamModel: string;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  /** The answer's extended thinking, when it had some. */
  reasoning?: ReasoningBlock[];
  inputTokens: number;
  outputTokens: number;
}

/** How a request used the cache, for the X-Cache and Age headers. */
export interface CacheOutcome {
  status: 'HIT' | 'MISS';
  ageSeconds: number;
}

export interface ResponseCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void>;
}

/** Larger answers are not stored: one long answer must not evict hundreds of short ones. */
export const MAX_ENTRY_BYTES = 256 * 1024;
/** Longest lifetime of an entry, whatever max-age or cacheTtlSeconds say. */
export const MAX_TTL_SECONDS = 24 * 3600;
/** Total size of the in-process cache (the Redis flavour is bounded by Redis's maxmemory). */
export const MEMORY_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Parses a request's Cache-Control. Undefined when the header says nothing about caching, so the
 * model's default applies; `no-store` wins over max-age.
 */
export function parseCacheControl(header: string | undefined): CacheDirective | undefined {
  if (!header) return undefined;
  let maxAgeSeconds: number | undefined;
  let noStore = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (name === 'no-store' || name === 'no-cache') noStore = true;
    else if (name === 'max-age' && value !== undefined && /^\d+$/.test(value.trim())) maxAgeSeconds = Number(value.trim());
  }
  if (!noStore && maxAgeSeconds === undefined) return undefined;
  return { noStore, maxAgeSeconds };
}

/**
 * The max-age a request uses: its own, else the model's default; 0 means the cache is not
 * consulted at all (no lookup, no write, no X-Cache header).
 */
export function effectiveMaxAge(directive: CacheDirective | undefined, modelDefaultSeconds: number): number {
  if (directive?.noStore) return 0;
  return Math.min(directive?.maxAgeSeconds ?? modelDefaultSeconds, MAX_TTL_SECONDS);
}

/** JSON with object keys sorted and undefined members dropped: equal requests, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/**
 * The cache key of a request: the organization in clear (so one organization's entries can be
 * found and dropped) and a hash of everything that shapes the answer. `stream` is left out: a
 * streamed and a plain request get the same answer.
 */
export function cacheKey(organizationId: string, request: object): string {
  const { stream: _stream, ...shape } = request as Record<string, unknown>;
  const digest = createHash('sha256').update(canonicalJson(shape)).digest('base64url');
  return `gwcache:${organizationId}:${digest}`;
}

export function createResponseCache(shared: SharedState, clock: Clock, logger: Logger): ResponseCache {
  return shared.kind === 'redis' && shared.redis ? new RedisResponseCache(shared.redis, logger) : new MemoryResponseCache(clock);
}

class RedisResponseCache implements ResponseCache {
  constructor(private readonly redis: Redis, private readonly logger: Logger) {}

  async get(key: string): Promise<CachedAnswer | undefined> {
    try {
      const text = await this.redis.get(key);
      return text ? (JSON.parse(text) as CachedAnswer) : undefined;
    } catch (error) {
      // A cache that cannot answer is a miss, never a failed request.
      this.logger.warn({ err: (error as Error).message }, 'response cache read failed');
      return undefined;
    }
  }

  async set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    const text = JSON.stringify(answer);
    if (Buffer.byteLength(text) > MAX_ENTRY_BYTES || ttlSeconds <= 0) return;
    try {
      await this.redis.set(key, text, 'EX', Math.min(ttlSeconds, MAX_TTL_SECONDS));
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'response cache write failed');
    }
  }
}

interface MemoryEntry {
  answer: CachedAnswer;
  expiresAt: number;
  bytes: number;
}

/** Least recently used first out (a Map keeps insertion order; a hit re-inserts). */
export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, MemoryEntry>();
  private bytes = 0;

  constructor(private readonly clock: Clock, private readonly maxBytes = MEMORY_CACHE_MAX_BYTES) {}

  get(key: string): Promise<CachedAnswer | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    this.remove(key, entry);
    if (entry.expiresAt <= this.clock.now().getTime()) return Promise.resolve(undefined);
    this.insert(key, entry);
    return Promise.resolve(entry.answer);
  }

  set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    // Strings count twice: V8 keeps most as one or two bytes per character; this errs high.
    const bytes = 2 * JSON.stringify(answer).length + key.length;
    if (bytes > MAX_ENTRY_BYTES || ttlSeconds <= 0) return Promise.resolve();
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.insert(key, { answer, bytes, expiresAt: this.clock.now().getTime() + Math.min(ttlSeconds, MAX_TTL_SECONDS) * 1000 });
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
    return Promise.resolve();
  }

  /** Bytes held (tests). */
  size(): number {
    return this.bytes;
  }

  private insert(key: string, entry: MemoryEntry): void {
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
  }

  private remove(key: string, entry: MemoryEntry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
