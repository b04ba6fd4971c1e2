// An answer's extended thinking between the wire formats: streamed pieces merged into blocks,
// which blocks an Anthropic upstream can check, and the Responses API's `encrypted_content`, which
// carries signed thinking out to a client and back in its next turn.
import type { ReasoningDelta } from './providers/types.js';
import type { ReasoningBlock } from './types.js';

/** Adds a streamed piece of thinking to the blocks so far (a new index starts a block). */
export function mergeReasoning(blocks: ReasoningBlock[], delta: ReasoningDelta): ReasoningBlock {
  const block = (blocks[delta.index] ??= delta.redacted !== undefined ? { type: 'redacted_thinking', data: '' } : { type: 'thinking', thinking: '', signature: '' });
  if (block.type === 'redacted_thinking') {
    block.data += delta.redacted ?? '';
    return block;
  }
  if (delta.thinking) block.thinking += delta.thinking;
  if (delta.signature) block.signature += delta.signature;
  return block;
}

/**
 * Thinking Anthropic can check: a signed thinking block or a redacted one. The reasoning an
 * OpenAI-compatible server showed comes unsigned, and Anthropic would refuse it.
 */
export function isSigned(block: ReasoningBlock): boolean {
  return block.type === 'redacted_thinking' || block.signature.length > 0;
}

/**
 * Marks an `encrypted_content` this gateway made. It is not encrypted: the thinking it carries is
 * the client's to read (the item's `content` shows it), and Anthropic checks the signatures of what
 * comes back. Another server's (OpenAI's own) reads as no thinking.
 */
const SEALED_PREFIX = 'aiwr1.';

/** The blocks Anthropic can check, as a Responses reasoning item's `encrypted_content`; null when there are none. */
export function sealReasoning(blocks: ReasoningBlock[]): string | null {
  const signed = blocks.filter(isSigned);
  return signed.length === 0 ? null : SEALED_PREFIX + Buffer.from(JSON.stringify(signed)).toString('base64url');
}

/**
 * The blocks an `encrypted_content` carries: [] for one another server made (nothing this gateway
 * can send on), undefined for one that claims to be this gateway's but does not read as signed blocks.
 */
export function unsealReasoning(sealed: string): ReasoningBlock[] | undefined {
  if (!sealed.startsWith(SEALED_PREFIX)) return [];
  let blocks: unknown;
  try {
    blocks = JSON.parse(Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(blocks) || blocks.length === 0 || !blocks.every(isSignedBlock)) return undefined;
  return blocks.map((block: ReasoningBlock) =>
    block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : { type: 'redacted_thinking', data: block.data });
}

function isSignedBlock(value: unknown): value is ReasoningBlock {
  const block = value as Record<string, unknown> | null;
  if (typeof block !== 'object' || block === null) return false;
  if (block.type === 'redacted_thinking') return typeof block.data === 'string' && block.data.length > 0;
  return block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string' && block.signature.length > 0;
}
