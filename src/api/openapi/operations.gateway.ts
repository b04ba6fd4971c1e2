// Registry entries of the gateway extras: GET /v1/models and POST /v1/embeddings,
// with their response schemas.
import { z } from 'zod';
import { embeddingRequestSchema } from '../../gateway/embeddings.schemas.js';
import { apiSchemas, type Operation } from './registry.js';

const modelList = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        id: z.string().describe('A model id of the gateway config or a tier'),
        object: z.literal('model'),
        created: z.number().int().describe('Unix seconds (when this gateway loaded its config)'),
        owned_by: z.string().describe("The provider of the model's first target, or `gateway` for a tier"),
      }),
    ),
  })
  .register(apiSchemas, { id: 'ModelList' });

const embeddingList = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        object: z.literal('embedding'),
        index: z.number().int(),
        embedding: z.union([z.array(z.number()), z.string()]).describe('Floats, or base64 of little-endian float32 with `encoding_format: base64`'),
      }),
    ),
    model: z.string().describe('The model that answered'),
    usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
  })
  .register(apiSchemas, { id: 'EmbeddingList' });

export const gatewayOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    tag: 'Chat completions',
    summary: 'The models and tiers the calling key may use (OpenAI list shape)',
    auth: 'caller',
    responses: { 200: { description: 'The models', schema: modelList } },
    errors: [],
  },
  {
    method: 'post',
    path: '/v1/embeddings',
    operationId: 'createEmbeddings',
    tag: 'Chat completions',
    summary: 'Create embeddings (OpenAI-compatible) with a `mode: embedding` model',
    description: 'A chat model here (or an embedding model on /v1/chat/completions) is 400 naming `model`; a model outside the key\'s allow-list is 403 `model_not_allowed`.',
    auth: 'caller',
    body: { id: 'EmbeddingRequest', schema: embeddingRequestSchema, required: true, example: { model: 'text-embedding-3-small', input: ['The quick brown fox', 'jumps over the lazy dog'], encoding_format: 'float' } },
    responses: { 200: { description: 'One vector per input, in input order', schema: embeddingList } },
    errors: ['budget_exceeded', 'dlp_blocked', 'model_not_allowed', 'provider_error', 'provider_unavailable'],
  },
];
