// Attacker's tests for SECURITY.md's third round (bounded work and billing): the gateway input "lows". DLP read an image URL as text only
// when it began with http(s) and left anything else alone as an image: another scheme, or a data:
// URL of any media type (which became Anthropic's `media_type`) or any body, carried a secret past
// it; a PDF's `file_data` was checked for its prefix only. Every route now takes an image as an
// https URL or a base64 PNG, JPEG, GIF or WebP and a PDF as base64, and answers anything else 400
// naming the field, before any upstream call. And a key limited to some models asked for a model
// it may not use: "does not exist" and "may not use" told it which models the gateway has, and a
// 400 on POST /automations listed them all; both now read the same and name no other model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DLP_POLICY, inspectRequest, type DlpPolicies } from '../../src/gateway/dlp/index.js';
import type { ChatMessage } from '../../src/gateway/types.js';
import { FAKE_EMBEDDING_MODEL, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SECRET = `ghp_${'a1B2'.repeat(9)}`;
/** An AWS key id inside valid base64 ('/' is in the alphabet and ends a word): a detector matches it, so bytes must stay unscanned. */
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const base64With = (bytes: Buffer, inside: string) => {
  let body = `${bytes.toString('base64').replace(/=+$/, '')}/${inside}/`;
  while (body.length % 4 !== 0) body += 'A';
  return body;
};
const PNG = base64With(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), AWS_KEY);
const PDF = base64With(Buffer.from('%PDF-1.4\n'), AWS_KEY);

let stack: Stack;
let org: TestOrganization;
let openai: FakeUpstream;
let anthropic: FakeUpstream;

beforeAll(async () => {
  openai = await startFakeUpstream();
  anthropic = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: openai, anthropic })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await openai?.close();
  await anthropic?.close();
});

const sent = () => openai.requests.length + anthropic.requests.length;
const reset = () => {
  openai.reset();
  anthropic.reset();
};

/** Image URLs no route takes, each a way past DLP before: the value and what it tried. */
const REFUSED_IMAGE_URLS: Array<[string, string]> = [
  ['plain http', `http://images.example.test/${SECRET}.png`],
  ['another scheme', `ftp://images.example.test/${SECRET}.png`],
  ['a file path', 'file:///etc/passwd'],
  ['a scheme-relative URL', `//images.example.test/${SECRET}.png`],
  ['leading whitespace before https', ` https://images.example.test/${SECRET}.png`],
  ['a backslash', `https://images.example.test\\@evil.test/${SECRET}.png`],
  ['whitespace inside', 'https://images.example.test/a b.png'],
  ['a text media type', `data:text/plain;base64,${Buffer.from(SECRET).toString('base64')}`],
  ['an SVG (a document, not a picture)', `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`],
  ['free text as the media type', `data:image/${SECRET};base64,AAAA`],
  ['a media type in capitals', 'data:image/PNG;base64,AAAA'],
  ['a parameter before base64', 'data:image/png;name=a.png;base64,AAAA'],
  ['not base64 at all', `data:image/png,${SECRET}`],
  ['text after valid base64', `data:image/png;base64,${PNG}${SECRET}`],
  ['base64 of the wrong length', 'data:image/png;base64,AAA'],
  ['padding inside', 'data:image/png;base64,AA==AAAA'],
  ['three padding characters', 'data:image/png;base64,A==='],
  ['base64url', 'data:image/png;base64,ab-_'],
  ['no bytes', 'data:image/png;base64,'],
];

/** PDF file_data no route takes. */
const REFUSED_FILE_DATA: Array<[string, string]> = [
  ['text after the prefix', `data:application/pdf;base64,%PDF-1.4 ${SECRET}`],
  ['a secret after valid base64', `data:application/pdf;base64,${PDF}${SECRET}`],
  ['base64 of the wrong length', 'data:application/pdf;base64,JVBERi0'],
  ['no bytes', 'data:application/pdf;base64,'],
  ['another media type', `data:text/plain;base64,${Buffer.from(SECRET).toString('base64')}`],
];

const chatWithImage = (url: string) => ({
  model: 'fake-model',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url } }] }],
});
const responsesWithImage = (url: string, inToolOutput: boolean) => ({
  model: 'fake-model',
  input: inToolOutput
    ? [
        { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_image', image_url: url }] },
      ]
    : [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: url }] }],
});

describe('image URLs', () => {
  it.each(REFUSED_IMAGE_URLS)('chat completions refuses %s with 400 naming the part, before any upstream call', async (_what, url) => {
    reset();
    const res = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: chatWithImage(url) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'messages[0].content[1].image_url.url' });
    expect(res.text).not.toContain(SECRET);
    expect(sent()).toBe(0);
  });

  it.each(REFUSED_IMAGE_URLS)('the Responses API refuses %s in a message and in a tool output, naming the part', async (_what, url) => {
    reset();
    for (const [inToolOutput, param] of [[false, 'input[0].content[1].image_url'], [true, 'input[1].output[0].image_url']] as const) {
      const res = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: responsesWithImage(url, inToolOutput) });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', param });
    }
    expect(sent()).toBe(0);
  });

  it('the Messages API refuses an image source that is not https or base64 of one of the four types, naming the field', async () => {
    reset();
    const sources: Array<[Record<string, unknown>, string]> = [
      [{ type: 'url', url: `http://images.example.test/${SECRET}.png` }, 'source.url'],
      [{ type: 'url', url: `ftp://images.example.test/${SECRET}.png` }, 'source.url'],
      [{ type: 'url', url: `data:image/png;base64,${PNG}` }, 'source.url'],
      [{ type: 'base64', media_type: 'image/svg+xml', data: 'AAAA' }, 'source.media_type'],
      [{ type: 'base64', media_type: 'image/png', data: `${PNG}${SECRET}` }, 'source.data'],
      [{ type: 'base64', media_type: 'image/png', data: 'AAA' }, 'source.data'],
    ];
    for (const [source, field] of sources) {
      for (const inToolResult of [false, true]) {
        const image = { type: 'image', source };
        const messages = inToolResult
          ? [
              { role: 'user', content: 'Take a screenshot.' },
              { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image] }] },
            ]
          : [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }];
        const res = await call<any>(stack.baseUrl, 'POST', '/messages', { key: org.member.key, body: { model: 'fake-claude', max_tokens: 64, messages } });
        const param = inToolResult ? `messages[2].content[0].content[0].${field}` : `messages[0].content[1].${field}`;
        expect(res.status, `${JSON.stringify(source)}: ${res.text}`).toBe(400);
        expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining(`${param}:`) } });
        expect(res.text).not.toContain(SECRET);
      }
    }
    expect(sent()).toBe(0);
  });

  it.each([
    ['an OpenAI-style', 'fake-model'],
    ['an Anthropic-style', 'fake-claude'],
  ])('takes an https URL and a base64 image on every route, and the image bytes reach %s upstream unscanned', async (_kind, model) => {
    for (const url of ['https://images.example.test/a.png', 'HTTPS://images.example.test/b.png?size=2', `data:image/png;base64,${PNG}`, `data:image/webp;base64,${PNG}`]) {
      reset();
      const chat = await call<any>(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { ...chatWithImage(url), model } });
      expect(chat.status, `${url}: ${chat.text}`).toBe(200);
      const responses = await call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { ...responsesWithImage(url, false), model } });
      expect(responses.status, `${url}: ${responses.text}`).toBe(200);
      expect(sent()).toBe(2);
    }
    reset();
    const messages = await call<any>(stack.baseUrl, 'POST', '/messages', {
      key: org.member.key,
      body: { model, max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://images.example.test/c.png' } }, { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: PNG } }] }] },
    });
    expect(messages.status, messages.text).toBe(200);
    // The AWS key id inside the bytes matched no detector: bytes are not text.
    expect(JSON.stringify([...openai.requests, ...anthropic.requests].map((request) => request.body))).toContain(AWS_KEY);
  });

  it('DLP reads as text every image URL that is not an image\'s own bytes (a URL from anywhere but the schemas included)', async () => {
    const policies = { cachedPolicy: () => DEFAULT_DLP_POLICY, policyFor: async () => DEFAULT_DLP_POLICY } as unknown as DlpPolicies;
    const withImage = (url: string): ChatMessage[] => [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }];
    for (const url of [`https://x.test/${SECRET}`, `http://x.test/${SECRET}`, `ftp://x.test/${SECRET}`, ` data:image/png;base64,${SECRET}`, `data:text/plain;base64,${SECRET}`, `data:image/${SECRET};base64,AAAA`]) {
      const verdict = await inspectRequest(policies, 'org', { messages: withImage(url) });
      expect(verdict.blocked, url).toEqual(['github_token']);
    }
    const bytes = await inspectRequest(policies, 'org', { messages: withImage(`data:image/png;base64,${PNG}`) });
    expect(bytes.blocked).toEqual([]);
  });
});

describe('PDF file_data', () => {
  it.each(REFUSED_FILE_DATA)('chat completions and the Responses API refuse %s, naming the field', async (_what, fileData) => {
    reset();
    const chat = await call<any>(stack.baseUrl, 'POST', '/chat/completions', {
      key: org.member.key,
      body: { model: 'fake-model', messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: fileData, filename: 'q3.pdf' } }, { type: 'text', text: 'Summarise it.' }] }] },
    });
    expect(chat.status, chat.text).toBe(400);
    expect(chat.body.error).toMatchObject({ code: 'bad_request', param: 'messages[0].content[0].file.file_data' });
    const responses = await call<any>(stack.baseUrl, 'POST', '/responses', {
      key: org.member.key,
      body: { model: 'fake-model', input: [{ role: 'user', content: [{ type: 'input_file', file_data: fileData, filename: 'q3.pdf' }] }] },
    });
    expect(responses.status, responses.text).toBe(400);
    expect(responses.body.error).toMatchObject({ code: 'bad_request', param: 'input[0].content[0].file_data' });
    expect(sent()).toBe(0);
  });

  it("the Messages API refuses a PDF document whose data is not base64, naming the field; a valid one's bytes reach the upstream unscanned", async () => {
    reset();
    const withDocument = (data: string) => ({
      model: 'fake-claude',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }, { type: 'text', text: 'Summarise it.' }] }],
    });
    for (const data of [`%PDF-1.4 ${SECRET}`, `${PDF}${SECRET}`, 'JVBERi0', '']) {
      const res = await call<any>(stack.baseUrl, 'POST', '/messages', { key: org.member.key, body: withDocument(data) });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.message).toContain('messages[0].content[0].source.data:');
    }
    expect(sent()).toBe(0);
    const taken = await call<any>(stack.baseUrl, 'POST', '/messages', { key: org.member.key, body: withDocument(PDF) });
    expect(taken.status, taken.text).toBe(200);
    expect(JSON.stringify(anthropic.requests.map((request) => request.body))).toContain(PDF);
  });
});

describe('a key limited to one model', () => {
  const ALLOWED = 'fake-model';
  const MISSING = 'no-such-model-3000';
  let limited: string;
  let otherModels: string[];

  beforeAll(async () => {
    const created = await call<any>(stack.baseUrl, 'POST', '/api-keys', { key: org.member.key, body: { name: 'one model', models: [ALLOWED] } });
    expect(created.status, created.text).toBe(201);
    limited = created.body.key;
    otherModels = stack.runtime.gateway.models().filter((model) => model !== ALLOWED);
    expect(otherModels).toEqual(expect.arrayContaining(['fake-claude', FAKE_EMBEDDING_MODEL]));
  });

  /** An answer's body with the model it asked for written as <model>. */
  const asAsked = (text: string, model: string) => text.replaceAll(model, '<model>');
  /** Every gateway model but the allowed one and the one asked for that a text names. */
  const othersNamed = (text: string, asked: string) => otherModels.filter((model) => model !== asked && text.includes(model));

  const ROUTES: Array<{ path: string; body: (model: string) => Record<string, unknown>; existing: string[] }> = [
    { path: '/chat/completions', body: (model) => ({ model, messages: [{ role: 'user', content: 'Hi' }] }), existing: ['fake-claude', 'premium', FAKE_EMBEDDING_MODEL] },
    { path: '/chat/completions', body: (model) => ({ model, stream: true, messages: [{ role: 'user', content: 'Hi' }] }), existing: ['fake-claude'] },
    { path: '/responses', body: (model) => ({ model, input: 'Hi' }), existing: ['fake-claude', FAKE_EMBEDDING_MODEL] },
    { path: '/messages', body: (model) => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }), existing: ['fake-claude', FAKE_EMBEDDING_MODEL] },
    { path: '/messages/count_tokens', body: (model) => ({ model, messages: [{ role: 'user', content: 'Hi' }] }), existing: ['fake-claude'] },
    { path: '/embeddings', body: (model) => ({ model, input: 'Hi' }), existing: [FAKE_EMBEDDING_MODEL, 'fake-claude'] },
  ];

  it.each(ROUTES.flatMap((route) => route.existing.map((existing) => ({ ...route, existing, label: `${route.path}${route.body('m').stream ? ' (stream)' : ''}: ${existing}` }))))(
    'answers $label (exists, not allowed) exactly as a model that does not exist, naming no other model',
    async ({ path, body, existing }) => {
      reset();
      const notAllowed = await call(stack.baseUrl, 'POST', path, { key: limited, body: body(existing) });
      const notFound = await call(stack.baseUrl, 'POST', path, { key: limited, body: body(MISSING) });
      expect(notAllowed.status, notAllowed.text).toBe(notFound.status);
      expect(asAsked(notAllowed.text, existing)).toBe(asAsked(notFound.text, MISSING));
      expect(notAllowed.status).toBe(403);
      expect(othersNamed(notAllowed.text, existing)).toEqual([]);
      expect(othersNamed(notFound.text, MISSING)).toEqual([]);
      expect(sent()).toBe(0);
    },
  );

  it('gets one answer on POST /automations for a model that exists and one that does not, naming no other model', async () => {
    const automation = (model: string) => ({ name: 'Digest', systemPrompt: 'Summarise the day.', schedule: '0 9 * * *', status: 'paused', model });
    const notAllowed = await call(stack.baseUrl, 'POST', '/automations', { key: limited, body: automation('fake-claude') });
    const notFound = await call(stack.baseUrl, 'POST', '/automations', { key: limited, body: automation(MISSING) });
    expect(othersNamed(notFound.text, MISSING)).toEqual([]);
    expect(notAllowed.status, notAllowed.text).toBe(notFound.status);
    expect(asAsked(notAllowed.text, 'fake-claude')).toBe(asAsked(notFound.text, MISSING));
  });
});
