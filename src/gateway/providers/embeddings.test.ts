import { describe, expect, it } from 'vitest';
import { buildOpenAiEmbeddingRequest, devEmbedding, parseOpenAiEmbeddingResponse } from './embeddings.js';

describe('embedding providers', () => {
  it('asks an OpenAI-compatible upstream for floats, with dimensions and user only when given', () => {
    const request = buildOpenAiEmbeddingRequest({ upstreamModel: 'u', input: ['a'], apiKey: 'sk', dimensions: 8 });
    expect(request.path).toBe('/embeddings');
    expect(request.headers.authorization).toBe('Bearer sk');
    expect(JSON.parse(request.body)).toEqual({ model: 'u', input: ['a'], encoding_format: 'float', dimensions: 8 });
  });

  it('puts vectors in input order by their index, and refuses a count that does not match the inputs', () => {
    const parsed = parseOpenAiEmbeddingResponse({ data: [{ index: 1, embedding: [2] }, { index: 0, embedding: [1] }], usage: { prompt_tokens: 4 } }, 2);
    expect(parsed).toEqual({ vectors: [[1], [2]], inputTokens: 4 });
    expect(parseOpenAiEmbeddingResponse({ data: [{ embedding: [1] }] }, 1).inputTokens).toBeNull();
    expect(() => parseOpenAiEmbeddingResponse({ data: [{ index: 0, embedding: [1] }] }, 2)).toThrow(/different number/);
    expect(() => parseOpenAiEmbeddingResponse({ data: [{ index: 0, embedding: 'AAAA' }] }, 1)).toThrow(/not an array/);
  });

  it('gives the dev responder deterministic unit vectors of the asked length', () => {
    const vector = devEmbedding('hello', 40);
    expect(vector).toHaveLength(40);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 9);
    expect(devEmbedding('hello', 40)).toEqual(vector);
    expect(devEmbedding('hello!', 40)).not.toEqual(vector);
  });
});
