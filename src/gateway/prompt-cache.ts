// Prompt caching as the gateway sees a request: the breakpoints it carries (a client's
// `cache_control`, kept through every wire format), the ones a model with `promptCaching: auto`
// adds for an Anthropic upstream when the client set none, and what writing them costs (a
// breakpoint's TTL: 5 minutes, or an hour). Pure functions over the core request: the adapters
// write the breakpoints in their upstream's format (an OpenAI-style upstream gets none; it caches
// on its own, steered by prompt_cache_key).
import type { RouteTarget } from './router.js';
import type { CacheControl, ChatCompletionRequest, ChatMessage, ToolDefinition } from './types.js';

/** Whether a request writes the upstream's prompt cache, and with which TTL at most. */
export type PromptCacheWrite = 'none' | '5m' | '1h';

/** Anthropic takes at most four breakpoints in one request; `auto` adds three at most. */
export const MAX_BREAKPOINTS = 4;

const AUTO_BREAKPOINT: CacheControl = { type: 'ephemeral' };

/** Every breakpoint of the request: on tools, messages, their content parts and tool calls. */
function* breakpointsOf(request: Pick<ChatCompletionRequest, 'messages' | 'tools'>): Generator<CacheControl> {
  for (const tool of request.tools ?? []) if (tool.cache_control) yield tool.cache_control;
  for (const message of request.messages) {
    if (message.cache_control) yield message.cache_control;
    if (Array.isArray(message.content)) for (const part of message.content) if (part.cache_control) yield part.cache_control;
    for (const call of message.tool_calls ?? []) if (call.cache_control) yield call.cache_control;
  }
}

/**
 * Whether the request as sent upstream carries breakpoints: '1h' if any asks for the 1-hour TTL,
 * '5m' if some do (the default TTL), 'none' otherwise. What the budget hold prices the prompt at.
 */
export function promptCacheWrite(request: Pick<ChatCompletionRequest, 'messages' | 'tools'>): PromptCacheWrite {
  let write: PromptCacheWrite = 'none';
  for (const breakpoint of breakpointsOf(request)) {
    if (breakpoint.ttl === '1h') return '1h';
    write = '5m';
  }
  return write;
}

/** Whether the gateway adds breakpoints for this target: its model says `promptCaching: auto` and its upstream speaks Anthropic's API. */
export function addsBreakpoints(target: Pick<RouteTarget, 'model' | 'provider'>): boolean {
  return target.model.promptCaching === 'auto' && target.provider.type === 'anthropic';
}

/** The request as it goes to `target`: with `auto` breakpoints where its model asks for them. */
export function promptCachedFor<T extends Pick<ChatCompletionRequest, 'messages' | 'tools'>>(request: T, target: Pick<RouteTarget, 'model' | 'provider'>): T {
  return addsBreakpoints(target) ? withAutoBreakpoints(request) : request;
}

/**
 * What the request writes to the cache on the worst of its targets (the budget hold's price): its
 * own breakpoints, or those `auto` adds for a target whose model asks for them.
 */
export function promptCacheWriteFor(request: Pick<ChatCompletionRequest, 'messages' | 'tools'>, targets: readonly Pick<RouteTarget, 'model' | 'provider'>[]): PromptCacheWrite {
  const own = promptCacheWrite(request);
  if (own !== 'none') return own;
  return targets.some(addsBreakpoints) ? promptCacheWrite(withAutoBreakpoints(request)) : 'none';
}

/**
 * `promptCaching: auto`: when the client set no breakpoint, one at the end of the tools, one at the
 * end of the system prompt and one at the end of the last user turn (a user message or a tool
 * result), the 5-minute TTL each: three at most, within Anthropic's four. Each caches the prefix up
 * to it, so a tool loop or a run that resends its skill's prompt reads the earlier turns from the
 * cache. A request with breakpoints of its own is the client's to shape, and is left as it is.
 */
export function withAutoBreakpoints<T extends Pick<ChatCompletionRequest, 'messages' | 'tools'>>(request: T): T {
  if (promptCacheWrite(request) !== 'none') return request;
  const lastSystem = request.messages.findLastIndex((message) => message.role === 'system' && hasText(message));
  const lastUser = request.messages.findLastIndex((message) => (message.role === 'user' || message.role === 'tool') && hasText(message));
  const tools = request.tools;
  if (lastSystem < 0 && lastUser < 0 && !tools?.length) return request;
  const messages = request.messages.map((message, index) => (index === lastSystem || index === lastUser ? { ...message, cache_control: AUTO_BREAKPOINT } : message));
  const out: T = { ...request, messages };
  if (tools?.length) out.tools = [...tools.slice(0, -1), { ...tools[tools.length - 1]!, cache_control: AUTO_BREAKPOINT } satisfies ToolDefinition];
  return out;
}

/** A message whose last block can carry a breakpoint (Anthropic refuses one on empty text). */
function hasText(message: ChatMessage): boolean {
  if (message.content === null) return false;
  return typeof message.content === 'string' ? message.content.length > 0 : message.content.length > 0;
}
