import fc from 'fast-check';
import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_PATTERNS, IMAGE_MEDIA_TYPES, chatCompletionRequestSchema, imageUrlProblem, isBase64, isImageDataUrl, parseChatCompletionBody, parseCommonChatBody } from './chat.schemas.js';

const base = { model: 'standard', messages: [{ role: 'user', content: 'Hello' }] };

/** Each field's values worth trying: valid ones, edge ones and wrong ones. */
const fieldValues: Record<string, unknown[]> = {
  model: ['m', '', 3, null, undefined],
  messages: [
    [],
    [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'Hi', name: 'ann' }, { role: 'assistant', content: '' }],
    [{ role: 'user', content: 'Hi', extra: 1 }],
    [{ role: 'user', content: 'Hi', name: 3 }],
    [{ role: 'user' }],
    [{ role: 'user', content: null }],
    [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    [{ role: 'tool', content: 'result', tool_call_id: 'c1' }],
    [{ role: 'tool', content: 'result' }],
    [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }],
    [{ role: 'robot', content: 'Hi' }],
    [null],
    [['user', 'Hi']],
    'Hello',
    undefined,
  ],
  stream: [true, false, 'yes', null, undefined],
  max_tokens: [1, 64, 0, -1, 1.5, 2 ** 60, '64', null, undefined],
  max_completion_tokens: [1, 128, 0, 2.5, null, '1', undefined],
  temperature: [0, 0.7, 2, 2.1, -0.1, '1', null, undefined],
  top_p: [0, 0.9, 1, 1.1, -1, null, undefined],
  stream_options: [{ include_usage: true }, { include_usage: false }, {}, { include_usage: 'yes' }, { other: 1 }, null, [], 'x', undefined],
  tools: [[{ type: 'function', function: { name: 'f' } }], undefined],
  tool_choice: ['auto', undefined],
  user: ['someone', 7],
  reasoning_effort: ['low', 'xhigh', 'none', 'bogus', 3, null, undefined],
};

/** The base body with one field set to each of its values, and a few bodies that set several. */
function bodies(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [field, values] of Object.entries(fieldValues)) {
    for (const value of values) out.push(value === undefined ? omit(base, field) : { ...base, [field]: value });
  }
  out.push({ model: 'm', messages: base.messages, stream: true, max_tokens: 10, max_completion_tokens: 20, temperature: 1, top_p: 0.5, stream_options: { include_usage: true }, n: 1, stop: ['x'] });
  out.push({ stream_options: null, top_p: 1, temperature: 0, stream: false, messages: base.messages, model: 'm' });
  return out;
}

function omit(object: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _omitted, ...rest } = object;
  return rest;
}

describe('chat completion body', () => {
  it('gives the schema\'s own answer, key order included, whenever the hand-checked path answers', () => {
    for (const body of bodies()) {
      const common = parseCommonChatBody(body);
      if (common === undefined) continue;
      const schema = chatCompletionRequestSchema.safeParse(body);
      expect(schema.success, JSON.stringify(body)).toBe(true);
      expect(JSON.stringify(common), JSON.stringify(body)).toBe(JSON.stringify(schema.data));
    }
  });

  it('answers the common bodies by hand and leaves tools, content parts and tool messages to the schema', () => {
    expect(parseCommonChatBody(base)).toEqual(base);
    expect(parseCommonChatBody({ ...base, stream: true, max_tokens: 64, temperature: 0.2, stream_options: { include_usage: true } })).toBeDefined();
    expect(parseCommonChatBody({ ...base, tools: fieldValues.tools![0] })).toBeUndefined();
    expect(parseCommonChatBody({ ...base, messages: fieldValues.messages![6] })).toBeUndefined();
    expect(parseCommonChatBody({ ...base, messages: fieldValues.messages![7] })).toBeUndefined();
  });

  it('names the bad field in the 400 exactly as the schema words it', () => {
    expect(() => parseChatCompletionBody({ ...base, temperature: 3 })).toThrow(expect.objectContaining({ code: 'bad_request', param: 'temperature', message: 'temperature must be between 0 and 2' }));
    expect(() => parseChatCompletionBody({ ...base, messages: [{ role: 'user', content: 3 }] })).toThrow(expect.objectContaining({ param: 'messages[0].content' }));
    expect(() => parseChatCompletionBody({ ...base, max_tokens: 0 })).toThrow(expect.objectContaining({ param: 'max_tokens', message: 'max_tokens must be a positive integer' }));
  });

  it('refuses an image or a file in a system or assistant message naming the part; takes them from the user and from tools', () => {
    const image = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
    const file = { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } };
    for (const [role, part] of [['system', image], ['assistant', file]] as const) {
      const body = { ...base, messages: [{ role, content: [{ type: 'text', text: 'see' }, part] }, { role: 'user', content: 'hi' }] };
      expect(() => parseChatCompletionBody(body), role).toThrow(expect.objectContaining({ code: 'bad_request', param: 'messages[0].content[1]', message: `${part.type} is taken in user messages and tool results only, not in ${role} messages` }));
    }
    const taken = parseChatCompletionBody({ ...base, messages: [{ role: 'user', content: [image, file] }, { role: 'tool', tool_call_id: 'c', content: [image] }] });
    expect(taken.request.messages.map((message) => message.role)).toEqual(['user', 'tool']);
  });
});

describe('reasoning_effort', () => {
  it('becomes the request\'s reasoning effort; an unknown one is a 400 naming the field and the values', () => {
    expect(parseChatCompletionBody({ ...base, reasoning_effort: 'minimal' }).request.reasoning).toEqual({ effort: 'minimal' });
    expect(parseChatCompletionBody({ ...base, reasoning_effort: null }).request).not.toHaveProperty('reasoning');
    expect(parseChatCompletionBody({ ...base, reasoning_effort: 'high' }).request).not.toHaveProperty('reasoning_effort');
    expect(() => parseChatCompletionBody({ ...base, reasoning_effort: 'max' })).toThrow(
      expect.objectContaining({ code: 'bad_request', param: 'reasoning_effort', message: expect.stringContaining('none, minimal, low, medium, high, xhigh') }),
    );
  });
});

describe('image URLs and PDF data', () => {
  const withImage = (url: string) => ({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url } }] }] });
  const withFile = (fileData: string) => ({ ...base, messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: fileData } }] }] });

  it('takes an https URL and a base64 PNG, JPEG, GIF or WebP; refuses anything else naming the part', () => {
    for (const url of ['https://example.com/a.png', 'https://example.com/a.png?x=1#y', ...IMAGE_MEDIA_TYPES.map((type) => `data:${type};base64,iVBORw0KGgo=`)]) {
      expect(() => parseChatCompletionBody(withImage(url)), url).not.toThrow();
    }
    for (const url of ['http://example.com/a.png', 'ftp://example.com/a.png', 'https:example.com', 'https://exa mple.com/', 'https://a\\b', 'https://\u0000x', 'data:image/svg+xml;base64,AAAA', 'data:image/png,AAAA', 'data:image/png;base64,AAA', 'data:image/png;base64,A===', 'data:image/png;base64,AAAA\n']) {
      expect(() => parseChatCompletionBody(withImage(url)), JSON.stringify(url)).toThrow(expect.objectContaining({ code: 'bad_request', param: 'messages[0].content[1].image_url.url', message: expect.stringMatching(/^url /) }));
    }
  });

  it('takes a PDF as valid base64 only, naming file_data', () => {
    expect(() => parseChatCompletionBody(withFile('data:application/pdf;base64,JVBERi0='))).not.toThrow();
    for (const fileData of ['data:application/pdf;base64,%PDF-1.4', 'data:application/pdf;base64,JVBERi0', 'data:application/pdf;base64,', 'data:text/plain;base64,AAAA']) {
      expect(() => parseChatCompletionBody(withFile(fileData)), fileData).toThrow(expect.objectContaining({ code: 'bad_request', param: 'messages[0].content[0].file.file_data' }));
    }
  });

  it('holds base64 to the standard alphabet, padded, a multiple of 4 long (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => isBase64(Buffer.from(bytes).toString('base64'))));
    // Whatever it takes decodes to as many bytes as its length says: nothing is skipped.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AZaz09+/=-_ .%\n'), maxLength: 40 }), (text) => {
        if (!isBase64(text)) return;
        const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
        expect(Buffer.from(text, 'base64').length).toBe((text.length / 4) * 3 - padding);
      }),
    );
    expect(isBase64('data:x;base64,AAAA', 'data:x;base64,'.length)).toBe(true);
    expect(['', 'A', 'AA=', 'A===', '====', 'AA==AA==', 'AAA-', 'AA A'].filter((text) => isBase64(text))).toEqual([]);
  });

  it.each(ATTACHMENT_PATTERNS.map((pattern) => ({ pattern, source: pattern.source })))('checks in linear time: $source has no super-linear backtracking', async ({ pattern }) => {
    const diagnostics = await check(pattern.source, pattern.flags, { randomSeed: 1, timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null });
    expect(diagnostics.status, JSON.stringify(diagnostics).slice(0, 2000)).toBe('safe');
  }, 180_000);

  it('reads every image URL that is not a base64 image of the four types as something other than bytes', () => {
    expect(isImageDataUrl('data:image/png;base64,AAAA')).toBe(true);
    for (const url of ['https://x.test/a.png', ' data:image/png;base64,AAAA', 'data:image/svg+xml;base64,AAAA', 'data:text/plain;base64,AAAA', 'DATA:image/png;base64,AAAA']) expect(isImageDataUrl(url), url).toBe(false);
    expect(imageUrlProblem('https://x.test/a.png')).toBeUndefined();
  });
});
