import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BpeCounter } from './bpe-count.js';
import {
  countCompletionTokens,
  countPromptTokens,
  countTextTokens,
  IMAGE_TOKEN_BOUND,
  imageTokenEstimate,
  PDF_PAGE_TOKEN_BOUND,
  PDF_PAGE_TOKEN_ESTIMATE,
  promptTokenBound,
  UNKNOWN_IMAGE_TOKENS,
  type PromptInput,
} from './tokens.js';
import type { ChatMessage, ToolDefinition } from './types.js';

const bpe = new BpeCounter();
afterAll(() => bpe.close());

const samples = [
  'Summarize the meeting notes in two sentences.',
  'Ünïcödé façade — naïve café, 東京都の天気は？ 🚀🚀🚀',
  'a'.repeat(5000),
  '{"json": [1, 2, 3], "nested": {"k": "v"}}\n\tindented\r\n',
  ' '.repeat(64),
  '',
];

/** Anthropic's documented tool-use system prompt (tokens), the largest fixed overhead of offering tools. */
const ANTHROPIC_TOOL_USE_PROMPT = 346;

/**
 * What a provider bills for an input, as far as a tokenizer can tell: the messages with their
 * framing, the tool definitions and tool choice as JSON, and the tool-use instructions added
 * when tools are offered.
 */
async function billedInputTokens(input: PromptInput): Promise<number> {
  let total = await countPromptTokens(bpe, { messages: input.messages });
  if (input.tools && input.tools.length > 0) total += (await countTextTokens(bpe, JSON.stringify(input.tools))) + ANTHROPIC_TOOL_USE_PROMPT;
  if (input.tool_choice !== undefined) total += await countTextTokens(bpe, JSON.stringify(input.tool_choice));
  return total;
}

const text = fc.string({ unit: 'grapheme', maxLength: 300 });
const identifier = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const toolCall = fc.record({
  id: identifier,
  type: fc.constant('function' as const),
  function: fc.record({ name: identifier, arguments: fc.json({ maxDepth: 3 }) }),
});
const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constantFrom('system' as const, 'user' as const), content: text, name: identifier }, { requiredKeys: ['role', 'content'] }),
  fc.record({ role: fc.constant('assistant' as const), content: fc.option(text, { nil: null }), tool_calls: fc.array(toolCall, { maxLength: 3 }) }),
  fc.record({ role: fc.constant('tool' as const), content: text, tool_call_id: identifier }),
);
const property = fc.record(
  { type: fc.constantFrom('string', 'number', 'boolean', 'integer'), description: text, enum: fc.array(text, { maxLength: 4 }) },
  { requiredKeys: ['type'] },
);
const tool: fc.Arbitrary<ToolDefinition> = fc.record({
  type: fc.constant('function' as const),
  function: fc.record(
    {
      name: identifier,
      description: text,
      parameters: fc.record({ type: fc.constant('object'), properties: fc.dictionary(identifier, property, { maxKeys: 6 }), required: fc.array(identifier, { maxLength: 3 }) }),
    },
    { requiredKeys: ['name'] },
  ),
});
const toolChoice = fc.oneof(
  fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
  identifier.map((name) => ({ type: 'function' as const, function: { name } })),
);
const promptInput: fc.Arbitrary<PromptInput> = fc.record(
  { messages: fc.array(message, { minLength: 1, maxLength: 6 }), tools: fc.array(tool, { maxLength: 4 }), tool_choice: toolChoice },
  { requiredKeys: ['messages'] },
);

describe('token counts', () => {
  it('covers the tool-use prompt Anthropic adds for a JSON schema answer (it goes up as a tool)', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const input: PromptInput = { messages: [{ role: 'user', content: 'ok?' }], response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } };
    const billed = (await countPromptTokens(bpe, { messages: input.messages })) + (await countTextTokens(bpe, JSON.stringify(input.response_format))) + ANTHROPIC_TOOL_USE_PROMPT;
    expect(promptTokenBound(input)).toBeGreaterThanOrEqual(billed);
  });

  it('bounds an image at what OpenAI\'s patch-based models bill at most (1,536 patches x 2.46 on gpt-4.1-nano)', () => {
    expect(IMAGE_TOKEN_BOUND).toBeGreaterThanOrEqual(Math.ceil(1_536 * 2.46));
  });

  it('bounds every prompt from above without tokenizing', async () => {
    for (const text of samples) {
      const messages: ChatMessage[] = [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: text },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ q: text }) } }] },
      ];
      expect(promptTokenBound({ messages })).toBeGreaterThanOrEqual(await countPromptTokens(bpe, { messages }));
    }
  });

  it('bounds from above every input billed: messages, names, tool-call ids, tool definitions, tool choice (property)', async () => {
    await fc.assert(
      fc.asyncProperty(promptInput, async (input) => {
        expect(promptTokenBound(input)).toBeGreaterThanOrEqual(await billedInputTokens(input));
      }),
      { numRuns: 300 },
    );
  });

  it('counts a large tool definition in the bound', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'What is the weather?' }];
    const tools: ToolDefinition[] = [{
      type: 'function',
      function: { name: 'get_weather', description: 'Weather for a city. '.repeat(200), parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    }];
    const bound = promptTokenBound({ messages, tools, tool_choice: 'required' });
    expect(bound).toBeGreaterThanOrEqual(await billedInputTokens({ messages, tools, tool_choice: 'required' }));
    expect(bound).toBeGreaterThan(promptTokenBound({ messages }) + (await countTextTokens(bpe, JSON.stringify(tools))));
  });

  it('counts each image at its bound, and an earlier answer\'s thinking (sent back in a tool loop) as text', async () => {
    const text: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Compare these.' }] };
    const withImages: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Compare these.' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }, { type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] };
    const toolImage: ChatMessage = { role: 'tool', tool_call_id: 'c1', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] };
    expect(promptTokenBound({ messages: [withImages, toolImage] }) - promptTokenBound({ messages: [text, { role: 'tool', tool_call_id: 'c1', content: [] }] })).toBe(3 * IMAGE_TOKEN_BOUND);
    const thinking = 'A long chain of thought. '.repeat(40);
    const turn: ChatMessage = { role: 'assistant', content: 'a', reasoning: [{ type: 'thinking', thinking, signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }] };
    const plain: ChatMessage = { role: 'assistant', content: 'a' };
    expect(promptTokenBound({ messages: [turn] }) - promptTokenBound({ messages: [plain] })).toBe(Buffer.byteLength(thinking) + 'sig'.length + 'opaque'.length);
    expect(await countPromptTokens(bpe, { messages: [turn] })).toBeGreaterThan((await countPromptTokens(bpe, { messages: [plain] })) + (await countTextTokens(bpe, thinking)) - 1);
  });

  it('counts each PDF by its pages (in a user turn or a tool result), each at the page bound', () => {
    const pages = (n: number) => Array.from({ length: n }, () => '<< /Type /Page >>').join('\n');
    const pdf = (n: number) => `data:application/pdf;base64,${Buffer.from(`%PDF-1.4\n${pages(n)}\n%%EOF`).toString('base64')}`;
    const question: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Summarize.' }, { type: 'file', file: { file_data: pdf(4), filename: 'a.pdf' } }] };
    const toolResult: ChatMessage = { role: 'tool', tool_call_id: 'c1', content: [{ type: 'file', file: { file_data: pdf(2) } }] };
    const bare: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Summarize.' }] }, { role: 'tool', tool_call_id: 'c1', content: [] }];
    expect(promptTokenBound({ messages: [question, toolResult] }) - promptTokenBound({ messages: bare })).toBe(6 * PDF_PAGE_TOKEN_BOUND);
  });

  it('reads at most 64 distinct PDFs per count, each past them at the most a provider takes, and one PDF copied many times once', () => {
    const pdf = (i: number) => `data:application/pdf;base64,${Buffer.from(`%PDF-1.4\n<< /Type /Page >>\n% ${i}\n%%EOF`).toString('base64')}`;
    const files = (data: string[]): PromptInput => ({ messages: [{ role: 'user', content: data.map((file_data) => ({ type: 'file' as const, file: { file_data } })) }] });
    const bare = promptTokenBound({ messages: [{ role: 'user', content: [] }] });
    const distinct = Array.from({ length: 70 }, (_, i) => pdf(i));
    expect(promptTokenBound(files(distinct)) - bare).toBe((64 + 6 * 100) * PDF_PAGE_TOKEN_BOUND);
    expect(promptTokenBound(files(Array.from({ length: 500 }, () => pdf(0)))) - bare).toBe(500 * PDF_PAGE_TOKEN_BOUND);
  });

  it('estimates an image by its pixels as Anthropic counts them (scaled to 1,568 px and ~1.15 MP), a PDF by its pages', async () => {
    const png = (width: number, height: number) => {
      const header = Buffer.alloc(24);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
      header.write('IHDR', 12, 'latin1');
      header.writeUInt32BE(width, 16);
      header.writeUInt32BE(height, 20);
      return `data:image/png;base64,${header.toString('base64')}`;
    };
    expect(imageTokenEstimate(png(200, 150))).toBe(40);
    // A 4K screenshot: scaled to ~1.15 MP first.
    expect(imageTokenEstimate(png(3840, 2160))).toBe(1534);
    expect(imageTokenEstimate(png(3000, 400))).toBe(Math.ceil((1568 * (400 * 1568) / 3000) / 750));
    expect(imageTokenEstimate('https://x.test/a.png')).toBe(UNKNOWN_IMAGE_TOKENS);
    const text: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Look.' }] };
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n<< /Type /Page >>\n<< /Type /Page >>\n%%EOF').toString('base64')}`;
    const attached: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Look.' }, { type: 'image_url', image_url: { url: png(200, 150) } }, { type: 'file', file: { file_data: pdf } }] };
    expect((await countPromptTokens(bpe, { messages: [attached] })) - (await countPromptTokens(bpe, { messages: [text] }))).toBe(40 + 2 * PDF_PAGE_TOKEN_ESTIMATE);
    // The estimate stays within the bound the budget reserves.
    expect(promptTokenBound({ messages: [attached] })).toBeGreaterThanOrEqual(await countPromptTokens(bpe, { messages: [attached] }));
  });

  it('counts text with the BPE tokenizer, plus framing per message', async () => {
    expect(await countTextTokens(bpe, '')).toBe(0);
    expect(await countTextTokens(bpe, 'hello world')).toBe(2);
    const messages: ChatMessage[] = [{ role: 'user', content: 'hello world' }];
    expect(await countPromptTokens(bpe, { messages })).toBe(2 + 3 + 3);
    expect(await countCompletionTokens(bpe, 'hello world', [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }])).toBe(
      2 + (await countTextTokens(bpe, 'f{}')),
    );
  });
});

describe('Messages documents in the token counts', () => {
  const text = 'Quarterly revenue grew four percent on the year. '.repeat(20);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n').toString('base64');

  it("counts a plain-text document's title, context and text, and a PDF document by its pages, in the bound and the estimate", async () => {
    const withDocuments: PromptInput = {
      messages: [{
        role: 'user',
        content: [
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: 'q3.txt', context: 'From the board pack' },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, citations: { enabled: true } },
          { type: 'text', text: 'Summarise.' },
        ],
      }],
    };
    const textOnly: PromptInput = { messages: [{ role: 'user', content: 'Summarise.' }] };
    const bound = promptTokenBound(withDocuments) - promptTokenBound(textOnly);
    expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(text + 'q3.txt' + 'From the board pack') + PDF_PAGE_TOKEN_BOUND);
    const estimate = (await countPromptTokens(bpe, withDocuments)) - (await countPromptTokens(bpe, textOnly));
    expect(estimate).toBeGreaterThanOrEqual((await countTextTokens(bpe, text)) + PDF_PAGE_TOKEN_ESTIMATE);
  });
});
