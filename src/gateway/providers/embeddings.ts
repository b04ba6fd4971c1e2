// Embeddings on the providers that serve them: OpenAI-compatible APIs (POST /embeddings, asked
// for floats; the gateway encodes base64 itself when the client wants it) and the built-in `dev`
// responder, whose vectors are a deterministic function of the text (unit length, no network).
import { createHash } from 'node:crypto';
import type { NormalizedEmbeddings, UpstreamHttpRequest } from './types.js';
import { UpstreamStreamError } from './types.js';

export interface EmbeddingCall {
  upstreamModel: string;
  input: string[];
  dimensions?: number | undefined;
  user?: string | undefined;
  apiKey: string | undefined;
}

/** The upstream's answer, normalized: one vector per input, in input order. */
export type { NormalizedEmbeddings } from './types.js';

export function buildOpenAiEmbeddingRequest(call: EmbeddingCall): UpstreamHttpRequest {
  const body: Record<string, unknown> = { model: call.upstreamModel, input: call.input, encoding_format: 'float' };
  if (call.dimensions !== undefined) body.dimensions = call.dimensions;
  if (call.user !== undefined) body.user = call.user;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  return { path: '/embeddings', headers, body: JSON.stringify(body) };
}

interface OpenAiEmbeddingResponse {
  data?: { index?: number; embedding?: unknown }[];
  usage?: { prompt_tokens?: number } | null;
}

export function parseOpenAiEmbeddingResponse(body: unknown, inputs: number): NormalizedEmbeddings {
  const response = body as OpenAiEmbeddingResponse;
  const vectors: number[][] = [];
  for (const [position, item] of (response.data ?? []).entries()) {
    const index = typeof item.index === 'number' ? item.index : position;
    if (!Array.isArray(item.embedding) || !item.embedding.every((value) => typeof value === 'number')) {
      throw new UpstreamStreamError('upstream embedding is not an array of numbers');
    }
    vectors[index] = item.embedding as number[];
  }
  if (vectors.length !== inputs || vectors.some((vector) => vector === undefined)) {
    throw new UpstreamStreamError('upstream answered a different number of embeddings than inputs');
  }
  const tokens = response.usage?.prompt_tokens;
  return { vectors, inputTokens: typeof tokens === 'number' ? tokens : null };
}

const DEV_DIMENSIONS = 16;

/** The dev responder's vector of a text: SHA-256 bytes stretched to `dimensions`, scaled to unit length. */
export function devEmbedding(text: string, dimensions = DEV_DIMENSIONS): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (const byte of digest) if (values.length < dimensions) values.push(byte / 127.5 - 1);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => value / norm);
}
