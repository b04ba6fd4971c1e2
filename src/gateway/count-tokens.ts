// Counting a prompt's tokens without calling an upstream (POST /v1/messages/count_tokens): the
// model must exist and the caller's key may use it, as for an answer; the count is the o200k BPE
// estimate usage falls back to (tokens.ts), not the upstream's own tokenizer.
import { resolveForCaller } from './access.js';
import type { BpeCounter } from './bpe-count.js';
import type { Router } from './router.js';
import { countPromptTokens } from './tokens.js';
import type { ChatCompletionRequest, ChatContext } from './types.js';

export async function countRequestTokens(router: Router, bpe: BpeCounter, request: ChatCompletionRequest, context: ChatContext): Promise<number> {
  resolveForCaller(router, context, request.model, 'chat');
  return countPromptTokens(bpe, request);
}
