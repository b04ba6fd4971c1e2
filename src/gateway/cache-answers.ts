// Turning answers into cache entries and back: a plain answer is stored as it is; a streamed one
// is captured chunk by chunk (text joined, tool call deltas merged by index) and stored when it
// ends well; a stored answer is replayed as a plain result or as stream chunks, so a streaming
// request gets server-sent events whichever way the answer was first produced.
import type { CachedAnswer } from './cache.js';
import type { NormalizedChunk, ToolCallDelta } from './providers/types.js';
import type { ToolCall } from './types.js';

/** Collects a streamed answer into a cache entry. */
export class StreamCapture {
  private text = '';
  private sawText = false;
  private readonly calls: ToolCall[] = [];
  private finishReason = 'stop';

  take(chunk: NormalizedChunk): void {
    if (chunk.delta.content !== undefined) {
      this.text += chunk.delta.content;
      this.sawText = true;
    }
    for (const delta of chunk.delta.tool_calls ?? []) this.merge(delta);
    if (chunk.finishReason) this.finishReason = chunk.finishReason;
  }

  answer(base: Omit<CachedAnswer, 'content' | 'toolCalls' | 'finishReason'>): CachedAnswer {
    return { ...base, content: this.sawText || this.calls.length === 0 ? this.text : null, toolCalls: this.calls.filter(Boolean), finishReason: this.finishReason };
  }

  private merge(delta: ToolCallDelta): void {
    const call = (this.calls[delta.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.function.name += delta.function.name;
    if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
  }
}

/** A stored answer as the chunks a live stream would have produced: text, tool calls, finish, usage. */
export async function* replayChunks(answer: CachedAnswer): AsyncGenerator<NormalizedChunk> {
  await Promise.resolve();
  if (answer.content) yield { delta: { content: answer.content }, finishReason: null };
  if (answer.toolCalls.length > 0) {
    yield {
      delta: {
        tool_calls: answer.toolCalls.map((call, index) => ({ index, id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: call.function.arguments } })),
      },
      finishReason: null,
    };
  }
  yield { delta: {}, finishReason: answer.finishReason };
  yield { delta: {}, finishReason: null, usage: { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens } };
}
