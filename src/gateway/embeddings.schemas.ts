// The embeddings request body (OpenAI's shape), validated at the edge. `input` is a string or an
// array of strings (token-id arrays are refused: DLP scans text). Unknown fields are ignored,
// as OpenAI clients may send more than these.
import { z } from 'zod';
import { badRequest } from '../errors.js';

/** OpenAI's own limit on inputs per request. */
export const MAX_EMBEDDING_INPUTS = 2048;

export const embeddingRequestSchema = z.object({
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  input: z.union(
    [
      z.string(),
      z.array(z.string({ error: 'input must be a string or an array of strings' })).min(1, 'input must not be empty').max(MAX_EMBEDDING_INPUTS, `input takes at most ${MAX_EMBEDDING_INPUTS} items`),
    ],
    { error: 'input must be a string or an array of strings' },
  ),
  encoding_format: z.enum(['float', 'base64'], { error: 'encoding_format must be float or base64' }).optional(),
  dimensions: z.number({ error: 'dimensions must be a positive integer' }).int('dimensions must be a positive integer').positive('dimensions must be a positive integer').max(65_536, 'dimensions must be at most 65536').optional(),
  user: z.string({ error: 'user must be a string' }).max(256, 'user must be at most 256 characters').optional(),
});

export interface EmbeddingRequest {
  model: string;
  input: string[];
  encodingFormat: 'float' | 'base64';
  dimensions?: number | undefined;
  user?: string | undefined;
}

/** Parses the body or throws 400 bad_request naming the first bad field (e.g. `input[2]`). */
export function parseEmbeddingBody(body: unknown): EmbeddingRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object', 'body');
  const parsed = embeddingRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : out ? `${out}.${String(segment)}` : String(segment)), '');
    throw badRequest(issue.message, param || 'body');
  }
  const { model, input, encoding_format: encodingFormat, dimensions, user } = parsed.data;
  return { model, input: typeof input === 'string' ? [input] : input, encodingFormat: encodingFormat ?? 'float', dimensions, user };
}
