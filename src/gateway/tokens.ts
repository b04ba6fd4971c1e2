// Token counts. Two kinds, for two needs:
// - `promptTokenBound`: the budget reservation's worst case, on every request. No tokenizing:
//   a BPE token covers at least one UTF-8 byte, so the byte length of everything billed as input
//   (message texts, names and tool-call ids, tool definitions, tool_choice) is a safe upper bound,
//   and it costs nothing (a 100 KB prompt takes milliseconds to tokenize, and the BPE tables take
//   ~70 MB of memory). Tool definitions are counted as their JSON text, which providers render
//   more compactly, plus a fixed allowance for the tool-use instructions providers add. An image
//   is billed by its pixels, not its bytes: each counts a fixed allowance above what the providers
//   bill for the largest image they take; a PDF by its pages (pdf-pages.ts counts them), each a
//   fixed allowance for its text and its image.
// - `countPromptTokens` / `countCompletionTokens`: usage when an upstream reports none, with
//   the o200k BPE of gpt-tokenizer (pure JS), plus OpenAI's per-message framing overhead.
//   Loaded on first use only. Records counted this way are marked estimated.
import { pdfPageCount } from './pdf-pages.js';
import { contentText, type ChatCompletionRequest, type ToolCall } from './types.js';

/** Framing tokens OpenAI adds per message and once per reply. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;
/**
 * Tokens a provider adds to the prompt when tools are offered, beyond the definitions: Anthropic's
 * tool-use system prompt (documented at up to 346 tokens), OpenAI's `namespace functions` framing.
 */
export const TOOL_USE_PROMPT_TOKENS = 512;
/**
 * Tokens an image may cost at most: Anthropic bills about 1,600 for the largest image it takes
 * unscaled (1.15 megapixels), OpenAI's high detail up to ~1,100 (gpt-4o's tiles) or ~2,500
 * (gpt-4.1-mini's patches).
 */
export const IMAGE_TOKEN_BOUND = 2_600;
/**
 * Tokens a PDF page is counted at: providers bill each page's text (Anthropic documents 1,500 to
 * 3,000 tokens a page, typically) and an image of the page.
 */
export const PDF_PAGE_TOKEN_BOUND = 3_000 + IMAGE_TOKEN_BOUND;

/** What a call sends as input: the messages plus the tools offered and the tool choice. */
export type PromptInput = Pick<ChatCompletionRequest, 'messages' | 'tools' | 'tool_choice' | 'response_format'>;

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | undefined;

function loadTokenizer(): Promise<CountTokens> {
  tokenizer ??= import('gpt-tokenizer').then((module) => module.countTokens);
  return tokenizer;
}

/**
 * The texts of the input, the tokens of framing around them, and the images and PDF pages it holds
 * (user messages and tool results); PDFs are read for their pages only when `pages` is asked for.
 */
function promptTexts(input: PromptInput, pages = false): { framed: number; texts: string[]; images: number; pdfPages: number } {
  const texts: string[] = [];
  let images = 0;
  let pdfPages = 0;
  for (const message of input.messages) {
    if (message.content) texts.push(contentText(message.content));
    if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'image_url') images += 1;
        else if (part.type === 'file' && pages) pdfPages += pdfPageCount(part.file.file_data);
      }
    }
    if (message.name) texts.push(message.name);
    if (message.tool_call_id) texts.push(message.tool_call_id);
    for (const call of message.tool_calls ?? []) texts.push(call.id + call.function.name + call.function.arguments);
    // An earlier answer's thinking, which goes back to an Anthropic upstream in a tool loop.
    for (const block of message.reasoning ?? []) texts.push(block.type === 'thinking' ? block.thinking + block.signature : block.data);
  }
  if (input.tools && input.tools.length > 0) texts.push(JSON.stringify(input.tools));
  if (input.tool_choice !== undefined) texts.push(JSON.stringify(input.tool_choice));
  if (input.response_format !== undefined) texts.push(JSON.stringify(input.response_format));
  return { framed: TOKENS_PER_REPLY + TOKENS_PER_MESSAGE * input.messages.length, texts, images, pdfPages };
}

/**
 * At least as many tokens as the input is billed, in any BPE vocabulary; never tokenizes. Covers
 * every input field the gateway sends upstream (anything added to the upstream request must be
 * counted here, or the budget reservation can fall short of the real cost).
 */
export function promptTokenBound(input: PromptInput): number {
  const { framed, texts, images, pdfPages } = promptTexts(input, true);
  const toolUse = input.tools && input.tools.length > 0 ? TOOL_USE_PROMPT_TOKENS : 0;
  return texts.reduce((total, text) => total + Buffer.byteLength(text, 'utf8'), framed + toolUse + images * IMAGE_TOKEN_BOUND + pdfPages * PDF_PAGE_TOKEN_BOUND);
}

export async function countTextTokens(text: string): Promise<number> {
  return text.length === 0 ? 0 : (await loadTokenizer())(text);
}

/** The input's tokens by the o200k BPE: message texts and framing, tool definitions and tool choice as their JSON. */
export async function countPromptTokens(input: PromptInput): Promise<number> {
  const { framed, texts } = promptTexts(input);
  let total = framed;
  for (const text of texts) total += await countTextTokens(text);
  return total;
}

export async function countCompletionTokens(content: string | null, toolCalls: ToolCall[] = []): Promise<number> {
  let total = await countTextTokens(content ?? '');
  for (const call of toolCalls) total += await countTextTokens(call.function.name + call.function.arguments);
  return total;
}
