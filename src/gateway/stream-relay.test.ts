import { describe, expect, it } from 'vitest';
import type { NormalizedChunk } from './providers/types.js';
import { RelayedChunks, type RelayOutcomes } from './stream-relay.js';
import type { UpstreamChunks } from './upstream-stream.js';

const text = (content: string): NormalizedChunk => ({ delta: { content }, finishReason: null });
const usageChunk: NormalizedChunk = { delta: {}, finishReason: null, usage: { inputTokens: 3, outputTokens: 2 } };

/** Upstream chunks from a list; `failAt` rejects that read instead. */
function upstream(chunks: NormalizedChunk[], failAt?: number): UpstreamChunks & { returned: boolean } {
  let index = 0;
  return {
    returned: false,
    next() {
      if (index === failAt) return Promise.reject(new Error('cut'));
      return Promise.resolve(index < chunks.length ? { done: false, value: chunks[index++]! } : { done: true, value: undefined });
    },
    return() {
      this.returned = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
}

function outcomes(): RelayOutcomes & { finished: string[]; renewalStopped: boolean } {
  return {
    finished: [],
    renewalStopped: false,
    take: (chunk) => chunk.usage === undefined,
    async finish(outcome) {
      this.finished.push(outcome);
      return { inputTokens: 3, outputTokens: 2 };
    },
    failure: (error) => ({ outcome: 'failure', thrown: new Error(`relayed: ${(error as Error).message}`) }),
    stopRenewal() {
      this.renewalStopped = true;
    },
  };
}

async function readAll(chunks: AsyncIterable<NormalizedChunk>): Promise<{ read: NormalizedChunk[]; error: unknown }> {
  const out: NormalizedChunk[] = [];
  try {
    for await (const chunk of chunks) out.push(chunk);
    return { read: out, error: undefined };
  } catch (error) {
    return { read: out, error };
  }
}

describe('RelayedChunks', () => {
  it('relays the head, then the rest without upstream usage chunks, then one usage chunk, settling success once', async () => {
    const rest = upstream([text(' two'), usageChunk, { delta: {}, finishReason: 'stop' }]);
    const settled = outcomes();
    const { read, error } = await readAll(new RelayedChunks([{ delta: { role: 'assistant' }, finishReason: null }, text('one')], rest, settled));
    expect(error).toBeUndefined();
    expect(read.map((chunk) => chunk.delta.content ?? chunk.finishReason ?? chunk.usage)).toEqual([undefined, 'one', ' two', 'stop', { inputTokens: 3, outputTokens: 2 }]);
    expect(settled.finished).toEqual(['success']);
    expect(settled.renewalStopped).toBe(true);
    expect(rest.returned).toBe(true);
  });

  it('settles a failure before raising what the outcomes make of it, after the chunks that came first', async () => {
    const rest = upstream([text(' two')], 1);
    const settled = outcomes();
    const { read, error } = await readAll(new RelayedChunks([text('one')], rest, settled));
    expect(read.map((chunk) => chunk.delta.content)).toEqual(['one', ' two']);
    expect(error).toMatchObject({ message: 'relayed: cut' });
    expect(settled.finished).toEqual(['failure']);
    expect(rest.returned).toBe(true);
  });

  it('ends the upstream call and settles an abort when the reader stops early', async () => {
    const rest = upstream([text(' two'), text(' three'), { delta: {}, finishReason: 'stop' }]);
    const settled = outcomes();
    for await (const chunk of new RelayedChunks([text('one')], rest, settled)) {
      if (chunk.delta.content === ' two') break;
    }
    expect(settled.finished).toEqual(['aborted']);
    expect(settled.renewalStopped).toBe(true);
    expect(rest.returned).toBe(true);
  });

  it('settles a failure once when our own tallying throws, in the head or in the rest', async () => {
    for (const throwOn of ['one', ' two']) {
      const rest = upstream([text(' two'), { delta: {}, finishReason: 'stop' }]);
      const settled = outcomes();
      settled.take = (chunk) => {
        if (chunk.delta.content === throwOn) throw new Error('ours');
        return true;
      };
      const { error } = await readAll(new RelayedChunks([text('one')], rest, settled));
      expect(error).toMatchObject({ message: 'relayed: ours' });
      expect(settled.finished).toEqual(['failure']);
      expect(rest.returned).toBe(true);
    }
  });
});
