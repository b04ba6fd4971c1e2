// Token counts. Two kinds, for two needs:
// - `promptTokenBound`: the budget reservation's worst case, on every request. No tokenizing:
//   a BPE token covers at least one UTF-8 byte, so the byte length of everything billed as input
//   (message texts, names and tool-call ids, tool definitions, tool_choice) is a safe upper bound,
//   and it costs nothing (a 100 KB prompt takes milliseconds to tokenize, and the BPE tables take
//   ~70 MB of memory). Tool definitions are counted as their JSON text, which providers render
//   more compactly, plus a fixed allowance for the tool-use instructions providers add (with
//   tools, or a JSON schema answer, which Anthropic upstreams get as a tool). An image
//   is billed by its pixels, not its bytes: each counts a fixed allowance above what the providers
//   bill for the largest image they take; a PDF by its pages (pdf-pages.ts counts them), each a
//   fixed allowance for its text and its image.
// - `countPromptTokens` / `countCompletionTokens`: usage when an upstream reports none, with
//   the o200k BPE (bpe-count.ts: bounded work, in a worker thread, never throws), plus OpenAI's
//   per-message framing overhead, and images and PDF pages by estimates (an image by its pixels
//   when its header says them). Records counted this way are marked estimated.
// A PDF copied into several parts of one request (item_reference) is read once per count.
import type { BpeCounter } from './bpe-count.js';
import { dataUrlImageSize } from './image-size.js';
import { pdfPageCount, UNREAD_PDF_PAGES } from './pdf-pages.js';
import { contentText, type ChatCompletionRequest, type ContentPart, type DocumentPart, type ToolCall } from './types.js';

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
 * unscaled (1.15 megapixels), OpenAI's high detail up to ~1,100 (gpt-4o's tiles), and its
 * patch-based models up to 1,536 patches times a model multiplier (gpt-4.1-mini 1.62, o4-mini
 * 1.72, gpt-4.1-nano 2.46: up to ~3,780).
 */
export const IMAGE_TOKEN_BOUND = 3_800;
/**
 * Tokens a PDF page is counted at: providers bill each page's text (Anthropic documents 1,500 to
 * 3,000 tokens a page, typically) and an image of the page.
 */
export const PDF_PAGE_TOKEN_BOUND = 3_000 + IMAGE_TOKEN_BOUND;

/** An image's estimate when its size is not known (a URL, a format not read): a large image's, scaled as below. */
export const UNKNOWN_IMAGE_TOKENS = 1_600;
/** A PDF page's estimate: the middle of Anthropic's typical 1,500-3,000 tokens of text, and its image. */
export const PDF_PAGE_TOKEN_ESTIMATE = 2_250 + UNKNOWN_IMAGE_TOKENS;

/**
 * An image's tokens as Anthropic counts them: width x height / 750, once scaled (aspect kept) to a
 * long edge of at most 1,568 px and at most ~1.15 megapixels; the size read off a `data:` URL's
 * header (PNG, GIF, JPEG), else UNKNOWN_IMAGE_TOKENS. Within IMAGE_TOKEN_BOUND either way.
 */
export function imageTokenEstimate(url: string): number {
  const size = dataUrlImageSize(url);
  if (!size) return UNKNOWN_IMAGE_TOKENS;
  const { width, height } = size;
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.max(1, Math.ceil((width * scale * height * scale) / 750));
}

/** What a call sends as input: the messages plus the tools offered and the tool choice. */
export type PromptInput = Pick<ChatCompletionRequest, 'messages' | 'tools' | 'tool_choice' | 'response_format'>;

/** What counts by its pixels or pages: images, and PDFs (a file part's, a Messages document's). */
type Attachment = Extract<ContentPart, { type: 'image_url' | 'file' }> | (DocumentPart & { source: { type: 'base64' } });

/** The texts of the input, the tokens of framing around them, and its images and files (in user messages and tool results). */
function promptTexts(input: PromptInput): { framed: number; texts: string[]; attachments: Attachment[] } {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const message of input.messages) {
    if (message.content) texts.push(contentText(message.content));
    if (Array.isArray(message.content)) for (const part of message.content) addPart(part, texts, attachments);
    if (message.name) texts.push(message.name);
    if (message.tool_call_id) texts.push(message.tool_call_id);
    for (const call of message.tool_calls ?? []) texts.push(call.id + call.function.name + call.function.arguments);
    // An earlier answer's thinking, which goes back to an Anthropic upstream in a tool loop.
    for (const block of message.reasoning ?? []) texts.push(block.type === 'thinking' ? block.thinking + block.signature : block.data);
  }
  if (input.tools && input.tools.length > 0) texts.push(JSON.stringify(input.tools));
  if (input.tool_choice !== undefined) texts.push(JSON.stringify(input.tool_choice));
  if (input.response_format !== undefined) texts.push(JSON.stringify(input.response_format));
  return { framed: TOKENS_PER_REPLY + TOKENS_PER_MESSAGE * input.messages.length, texts, attachments };
}

/** A part's attachment, or a document's texts (its title and context; a plain-text one's text): the text parts are contentText's. */
function addPart(part: ContentPart, texts: string[], attachments: Attachment[]): void {
  if (part.type === 'text') return;
  if (part.type !== 'document') {
    attachments.push(part);
    return;
  }
  if (part.title) texts.push(part.title);
  if (part.context) texts.push(part.context);
  if (part.source.type === 'text') texts.push(part.source.data);
  else attachments.push(part as Attachment);
}

/**
 * The tokens of the images and PDFs, each counted by `image` and by `page` (a PDF's pages read off
 * its bytes, once per distinct file: references can copy one PDF into many parts).
 */
function attachmentTokens(attachments: Attachment[], image: (url: string) => number, page: number): number {
  const pagesOf = new Map<string, number>();
  let total = 0;
  for (const part of attachments) {
    if (part.type === 'image_url') {
      total += image(part.image_url.url);
      continue;
    }
    const pdf = part.type === 'file' ? part.file.file_data : part.source.data;
    let pages = pagesOf.get(pdf);
    if (pages === undefined) {
      // Each read has a fixed cost (an inflate per object stream): thousands of tiny PDFs in one
      // body would add up. Past MAX_PDFS_READ a PDF counts the most a provider takes in a request.
      pages = pagesOf.size < MAX_PDFS_READ ? pdfPageCount(pdf) : UNREAD_PDF_PAGES;
      pagesOf.set(pdf, pages);
    }
    total += pages * page;
  }
  return total;
}

/** Distinct PDFs read per count; more than any provider takes in one request (Anthropic: 100 pages in all). */
const MAX_PDFS_READ = 64;

/**
 * At least as many tokens as the input is billed, in any BPE vocabulary; never tokenizes. Covers
 * every input field the gateway sends upstream (anything added to the upstream request must be
 * counted here, or the budget reservation can fall short of the real cost).
 */
export function promptTokenBound(input: PromptInput): number {
  const { framed, texts, attachments } = promptTexts(input);
  // A JSON schema answer goes to Anthropic as a tool (structured-output.ts): its tool-use prompt too.
  const toolUse = (input.tools && input.tools.length > 0) || input.response_format?.type === 'json_schema' ? TOOL_USE_PROMPT_TOKENS : 0;
  const attached = attachmentTokens(attachments, () => IMAGE_TOKEN_BOUND, PDF_PAGE_TOKEN_BOUND);
  return texts.reduce((total, text) => total + Buffer.byteLength(text, 'utf8'), framed + toolUse + attached);
}

/** A text's o200k tokens (bounded work, never throws: bpe-count.ts). */
export function countTextTokens(bpe: BpeCounter, text: string): Promise<number> {
  return bpe.count([text]);
}

/**
 * The input's tokens by the o200k BPE: message texts and framing, tool definitions and tool choice
 * as their JSON; images and PDF pages by their estimates (`imageTokenEstimate`, PDF_PAGE_TOKEN_ESTIMATE).
 */
export async function countPromptTokens(bpe: BpeCounter, input: PromptInput): Promise<number> {
  const { framed, texts, attachments } = promptTexts(input);
  return framed + attachmentTokens(attachments, imageTokenEstimate, PDF_PAGE_TOKEN_ESTIMATE) + (await bpe.count(texts));
}

export function countCompletionTokens(bpe: BpeCounter, content: string | null, toolCalls: ToolCall[] = []): Promise<number> {
  return bpe.count([content ?? '', ...toolCalls.map((call) => call.function.name + call.function.arguments)]);
}
