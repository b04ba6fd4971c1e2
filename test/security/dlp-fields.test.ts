// Attacker's tests for SECURITY.md's second round (trust), finding 7: a secret placed in a field DLP did not read leaves for
// the upstream. The test walks the project's own request schemas (chat completions, embeddings,
// Responses and Anthropic Messages, as JSON Schema) and fails on any free-text string field that
// is not listed in src/gateway/dlp/fields.ts; then it puts a secret in each listed field of a
// real request and expects 403 dlp_blocked with nothing sent upstream (OpenAI-style and
// Anthropic-style upstreams, whose requests are built differently), and for each field listed
// as ignored, that the secret never reaches either upstream. Identifiers (ids, function and tool
// names, stop sequences) are scanned but never masked: with the secrets detector set to mask, a
// secret there still blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatCompletionRequestSchema } from '../../src/gateway/chat.schemas.js';
import { CHAT_REQUEST_FIELDS, EMBEDDING_REQUEST_FIELDS, MESSAGES_REQUEST_FIELDS, RESPONSES_REQUEST_FIELDS, type FieldTreatment } from '../../src/gateway/dlp/fields.js';
import { embeddingRequestSchema } from '../../src/gateway/embeddings.schemas.js';
import { sealReasoning } from '../../src/gateway/reasoning.js';
import { messagesRequestSchema } from '../../src/gateway/wire/messages.schemas.js';
import { responsesRequestSchema } from '../../src/gateway/wire/responses.schemas.js';
import { FAKE_EMBEDDING_MODEL, fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import type { ChannelMessage, ChannelTarget } from '../../src/channels/index.js';
import { deliverToChannel } from '../../src/assistants/assistant-run.js';
import { recordRunningExecution } from '../helpers/executions.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SECRET = `ghp_${'a1B2'.repeat(9)}`;

type Json = Record<string, any>;

/** Whether a JSON Schema node admits `type` (`"type": "string"` or `"type": ["string", "null"]`). */
const admits = (schema: Json, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** Every string leaf of a JSON Schema: its path (`messages[].content[].text`) and whether its values are fixed (enum, const). */
function stringLeaves(schema: Json, path = '', out = new Map<string, 'free' | 'fixed'>()): Map<string, 'free' | 'fixed'> {
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) stringLeaves(branch, path, out);
  if (admits(schema, 'string') || (schema.const !== undefined && typeof schema.const === 'string') || (Array.isArray(schema.enum) && schema.enum.some((v: unknown) => typeof v === 'string'))) {
    const fixed = schema.const !== undefined || Array.isArray(schema.enum);
    if (out.get(path) !== 'free') out.set(path, fixed ? 'fixed' : 'free');
  }
  if (admits(schema, 'object') || schema.properties) {
    for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) stringLeaves(property, path ? `${path}.${name}` : name, out);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') stringLeaves(schema.additionalProperties, `${path}.*`, out);
  }
  if (admits(schema, 'array') && schema.items) stringLeaves(schema.items, `${path}[]`, out);
  return out;
}

const leavesOf = (schema: z.ZodType) => stringLeaves(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);

describe('every free-text string field of the request schemas is listed for DLP', () => {
  it.each([
    ['chat completions', chatCompletionRequestSchema, CHAT_REQUEST_FIELDS],
    ['embeddings', embeddingRequestSchema, EMBEDDING_REQUEST_FIELDS],
    ['responses', responsesRequestSchema, RESPONSES_REQUEST_FIELDS],
    ['messages', messagesRequestSchema, MESSAGES_REQUEST_FIELDS],
  ] as const)('%s: no string field is left out of src/gateway/dlp/fields.ts', (_name, schema, fields: Readonly<Record<string, FieldTreatment>>) => {
    const leaves = leavesOf(schema);
    expect(leaves.size).toBeGreaterThan(0);
    const missing = [...leaves].filter(([path, kind]) => kind === 'free' && fields[path] === undefined).map(([path]) => path);
    expect(missing, 'string fields DLP does not know about').toEqual([]);
    // And the list names no field the schema does not have (a renamed field would leave its new name unlisted).
    const stale = Object.keys(fields).filter((path) => !leaves.has(path) && !UNTYPED_JSON.has(path));
    expect(stale, 'listed fields the schema does not have').toEqual([]);
  });
});

/** JSON values the schemas take as any JSON (no string leaf to find): listed as json. */
const UNTYPED_JSON = new Set(['tools[].function.parameters', 'response_format.json_schema.schema', 'tools[].parameters', 'text.format.schema', 'tools[].input_schema', 'messages[].content[].input']);

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

/** A chat request with every field present, so each path below has somewhere to go. */
const fullChatRequest = (): Json => ({
  model: 'fake-model',
  messages: [
    { role: 'system', content: 'Be brief.', name: 'setup' },
    { role: 'user', content: [
      { type: 'text', text: 'Look at this.' },
      { type: 'image_url', image_url: { url: 'https://images.example.test/a.png', detail: 'low' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' } },
    ], name: 'alice' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
    { role: 'tool', content: 'result', tool_call_id: 'call_1' },
  ],
  tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
  tool_choice: { type: 'function', function: { name: 'lookup' } },
  response_format: { type: 'json_schema', json_schema: { name: 'answer', description: 'The answer', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
  prompt_cache_key: 'tenant-1',
});

/** Sets the value at a schema path (`messages[].name`) on the first array element that has that field. */
function setPath(target: Json, path: string, value: unknown): boolean {
  const [head, ...rest] = path.split('.');
  if (head === '*') {
    // Any key of a record: the first one.
    const first = Object.keys(target)[0];
    if (first === undefined || rest.length > 0) return false;
    target[first] = value;
    return true;
  }
  const isArray = head!.endsWith('[]');
  const key = isArray ? head!.slice(0, -2) : head!;
  if (rest.length === 0 && !isArray) {
    if (!(key in target)) return false;
    target[key] = value;
    return true;
  }
  const child = target[key];
  if (child === undefined || child === null) return false;
  if (isArray) {
    if (!Array.isArray(child)) return false;
    if (rest.length === 0) {
      const index = child.findIndex((item) => typeof item === 'string');
      if (index < 0) return false;
      child[index] = value;
      return true;
    }
    return child.some((item) => typeof item === 'object' && item !== null && setPath(item, rest.join('.'), value));
  }
  return typeof child === 'object' && setPath(child, rest.join('.'), value);
}

const scanned = (fields: Readonly<Record<string, FieldTreatment>>, kinds: FieldTreatment[]) => Object.entries(fields).filter(([, kind]) => kinds.includes(kind)).map(([path]) => path);
const valueFor = (kind: FieldTreatment, path = '') =>
  kind === 'url' ? `https://images.example.test/${SECRET}.png`
    : kind === 'json' ? { leaked: SECRET }
    // The Responses API's signed thinking travels sealed (as an answer gave it): the secret inside.
    : path === 'input[].encrypted_content' ? sealReasoning([{ type: 'thinking', thinking: SECRET, signature: 'sig' }])
    : SECRET;

/** A Responses request with every field present. */
const fullResponsesRequest = (model: string): Json => ({
  model,
  instructions: 'Be brief.',
  input: [
    { type: 'message', id: 'msg_1', role: 'user', content: [
      { type: 'input_text', text: 'Look at this.' },
      { type: 'input_image', image_url: 'https://images.example.test/a.png' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' },
    ] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }, { type: 'refusal', refusal: 'Not that.' }] },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Weighed it.' }], content: [{ type: 'reasoning_text', text: 'Considering.' }], encrypted_content: sealReasoning([{ type: 'thinking', thinking: 'Considering.', signature: 'sig' }]) },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' },
    { type: 'function_call_output', id: 'fco_1', call_id: 'call_1', output: 'result' },
    { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'lookup', arguments: '{"q":"y"}' },
    { type: 'function_call_output', id: 'fco_2', call_id: 'call_2', output: [
      { type: 'input_text', text: 'second result' },
      { type: 'input_image', image_url: 'https://images.example.test/c.png' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'read.pdf' },
    ] },
    { role: 'user', content: 'And now?' },
  ],
  tools: [{ type: 'function', name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
  tool_choice: { type: 'function', name: 'lookup' },
  text: { format: { type: 'json_schema', name: 'answer', description: 'The answer', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
  metadata: { tag: 'one' },
  store: false,
  prompt_cache_key: 'tenant-1',
});

/** A Messages request with every field present. */
const fullMessagesRequest = (model: string): Json => ({
  model,
  max_tokens: 64,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [
      { type: 'text', text: 'Look at these.', cache_control: { type: 'ephemeral' } },
      { type: 'image', source: { type: 'url', url: 'https://images.example.test/a.png' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'report.pdf', context: 'The quarterly report' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes.' }, title: 'notes.txt', context: 'Meeting notes' },
    ] },
    { role: 'assistant', content: [
      { type: 'thinking', thinking: 'Considering.', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
      { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { q: 'y' } },
    ] },
    { role: 'user', content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'result' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: [
        { type: 'text', text: 'second result', cache_control: { type: 'ephemeral' } },
        { type: 'image', source: { type: 'url', url: 'https://images.example.test/b.png' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'read.pdf', context: 'A file the tool read' },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'File text.' }, title: 'read.txt', context: 'Another file' },
      ] },
    ] },
    { role: 'assistant', content: 'Done.' },
    { role: 'user', content: 'And now?' },
  ],
  tools: [{ name: 'lookup', description: 'Looks things up', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, cache_control: { type: 'ephemeral' } }],
  tool_choice: { type: 'tool', name: 'lookup' },
  stop_sequences: ['END'],
  metadata: { user_id: 'user-1' },
});

const WIRES = [
  { name: 'responses', path: '/responses', fields: RESPONSES_REQUEST_FIELDS, template: fullResponsesRequest },
  { name: 'messages', path: '/messages', fields: MESSAGES_REQUEST_FIELDS, template: fullMessagesRequest },
] as const;
const UPSTREAMS = [
  { kind: 'OpenAI-style', model: 'fake-model' },
  { kind: 'Anthropic-style', model: 'fake-claude' },
] as const;
const upstreamSaw = (secret: string) => [...openai.requests, ...anthropic.requests].some((request) => JSON.stringify(request.body).includes(secret));
const cases = (kinds: FieldTreatment[]) =>
  WIRES.flatMap((wire) => UPSTREAMS.flatMap((upstream) => scanned(wire.fields, kinds).map((field) => ({ ...wire, ...upstream, field, label: `${wire.name} → ${upstream.kind}: ${field}` }))));

describe('a secret in any listed field of a real request is blocked', () => {
  it.each(scanned(CHAT_REQUEST_FIELDS, ['text', 'identifier', 'url', 'json']))('chat completions: %s', async (path) => {
    const body = fullChatRequest();
    expect(setPath(body, path, valueFor(CHAT_REQUEST_FIELDS[path]!)), `the template has ${path}`).toBe(true);
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body });
    expect(res.status, res.text).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'dlp_blocked', detectors: ['github_token'] });
  });

  it.each(scanned(EMBEDDING_REQUEST_FIELDS, ['text', 'identifier']))('embeddings: %s', async (path) => {
    const input = path === 'input' ? SECRET : path === 'input[]' ? ['one', SECRET] : ['one', 'two'];
    const body: Json = { model: FAKE_EMBEDDING_MODEL, input, user: path === 'user' ? SECRET : 'user-1' };
    const res = await call(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body });
    expect(res.status, res.text).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'dlp_blocked', detectors: ['github_token'] });
  });

  it.each(cases(['text', 'identifier', 'url', 'json', 'signed']))('$label', async ({ path, fields, template, model, field }) => {
    openai.reset();
    anthropic.reset();
    const body = template(model);
    expect(setPath(body, field, valueFor(fields[field]!, field)), `the template has ${field}`).toBe(true);
    const res = await call<any>(stack.baseUrl, 'POST', path, { key: org.member.key, body });
    expect(res.status, res.text).toBe(403);
    // OpenAI-shaped on /v1/responses, Anthropic-shaped on /v1/messages; either way the detector is named, never the match.
    expect(res.text).toContain('github_token');
    expect(res.text).not.toContain(SECRET);
    expect(openai.requests.length + anthropic.requests.length).toBe(0);
  });

  it.each(cases(['ignored']))('$label is never sent upstream', async ({ path, fields, template, model, field }) => {
    openai.reset();
    anthropic.reset();
    const body = template(model);
    if (field === 'previous_response_id') body[field] = SECRET;
    else expect(setPath(body, field, valueFor(fields[field]!)), `the template has ${field}`).toBe(true);
    const res = await call<any>(stack.baseUrl, 'POST', path, { key: org.member.key, body });
    // previous_response_id names no stored response: 400 (as OpenAI answers) before any upstream call; the others are answered.
    expect(res.status, res.text).toBe(field === 'previous_response_id' ? 400 : 200);
    if (res.status === 200) expect(openai.requests.length + anthropic.requests.length).toBe(1);
    expect(upstreamSaw(SECRET)).toBe(false);
  });

  it.each(WIRES.flatMap((wire) => UPSTREAMS.map((upstream) => ({ ...wire, ...upstream }))))('the $name template passes to the $kind upstream, with its images as sent', async ({ path, template, model }) => {
    openai.reset();
    anthropic.reset();
    const res = await call<any>(stack.baseUrl, 'POST', path, { key: org.member.key, body: template(model) });
    expect(res.status, res.text).toBe(200);
    expect(openai.requests.length + anthropic.requests.length).toBe(1);
    // What the template says is there (so a field silently dropped upstream is seen here).
    expect(upstreamSaw('Be brief.')).toBe(true);
    expect(upstreamSaw('lookup')).toBe(true);
  });

  // Image and PDF bytes are valid base64 (anything else is a 400: test/security/gateway-inputs.test.ts);
  // an AWS key id fits in base64 between two '/', where its detector matches it as text.
  const BYTES_WITH_KEY = `${Buffer.from('%PDF-1.4\n').toString('base64')}/AKIAIOSFODNN7EXAMPLE/AA`;

  it('the template itself passes, and a data: image URL is not text (left alone)', async () => {
    const body = fullChatRequest();
    body.messages[1].content[1].image_url.url = `data:image/png;base64,${BYTES_WITH_KEY}`;
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body });
    expect(res.status, res.text).toBe(200);
  });

  // `source.data` ('data' in the list): a plain-text document's is text, an image's or a PDF's is bytes.
  it.each(UPSTREAMS)("a plain-text document's data is text: a secret in it, in a user turn or a tool result, is blocked before the $kind upstream", async ({ model }) => {
    for (const inToolResult of [false, true]) {
      openai.reset();
      anthropic.reset();
      const body = fullMessagesRequest(model);
      const blocks = inToolResult ? body.messages[2].content[1].content : body.messages[0].content;
      const document = blocks.find((block: Json) => block.type === 'document' && block.source.type === 'text');
      document.source.data = `notes with ${SECRET}`;
      const res = await call<any>(stack.baseUrl, 'POST', '/messages', { key: org.member.key, body });
      expect(res.status, res.text).toBe(403);
      expect(res.text).toContain('github_token');
      expect(openai.requests.length + anthropic.requests.length).toBe(0);
    }
  });

  // A PDF's bytes ('file', and 'data' with a base64 source), on each route that takes files.
  const PDF = BYTES_WITH_KEY;
  const withPdf: Record<string, (model: string) => { path: string; body: Json }> = {
    'chat completions file part': (model) => {
      const body = fullChatRequest();
      body.model = model;
      body.messages[1].content[2].file.file_data = `data:application/pdf;base64,${PDF}`;
      return { path: '/chat/completions', body };
    },
    'Responses input_file': (model) => {
      const body = fullResponsesRequest(model);
      body.input[0].content[2].file_data = `data:application/pdf;base64,${PDF}`;
      body.input[6].output[2].file_data = `data:application/pdf;base64,${PDF}`;
      return { path: '/responses', body };
    },
    'Messages document': (model) => {
      const body = fullMessagesRequest(model);
      body.messages[0].content.find((block: Json) => block.type === 'document' && block.source.type === 'base64').source.data = PDF;
      return { path: '/messages', body };
    },
  };
  it.each(Object.keys(withPdf).flatMap((route) => UPSTREAMS.map((upstream) => ({ route, ...upstream }))))("a PDF's bytes are not text: a $route's reach the $kind upstream as sent", async ({ route, model }) => {
    openai.reset();
    anthropic.reset();
    const { path, body } = withPdf[route]!(model);
    const res = await call<any>(stack.baseUrl, 'POST', path, { key: org.member.key, body });
    expect(res.status, res.text).toBe(200);
    expect(upstreamSaw(PDF)).toBe(true);
  });

  it('identifiers are never masked: with the detector on mask, a secret in a name or id still blocks while text is masked', async () => {
    const team = await createTestOrganization(stack.runtime.orm);
    const policy = await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: team.admin.key, body: { detectors: { github_token: 'mask' } } });
    expect(policy.status, policy.text).toBe(200);
    for (const path of scanned(CHAT_REQUEST_FIELDS, ['identifier'])) {
      const body = fullChatRequest();
      setPath(body, path, SECRET);
      const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: team.member.key, body });
      expect(res.status, `${path}: ${res.text}`).toBe(403);
      expect(res.body.error.code).toBe('dlp_blocked');
    }
    const text = fullChatRequest();
    text.messages[0].content = `token ${SECRET}`;
    const masked = await call(stack.baseUrl, 'POST', '/chat/completions', { key: team.member.key, body: text });
    expect(masked.status, masked.text).toBe(200);
    expect(JSON.stringify(masked.body)).not.toContain(SECRET);
  });
});

describe('channel payloads', () => {
  it("scan the assistant's name with its answer: a secret in the name blocks the delivery, a masked one leaves masked", async () => {
    const sent: ChannelMessage[] = [];
    const sender = { send: async (_channel: ChannelTarget, message: ChannelMessage) => (sent.push(message), 'ok') };
    const named = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: { name: `Notifier ${SECRET}`, systemPrompt: 'hi', channels: [{ type: 'slack', target: '#general', token: 'xoxb-organization-own-app' }] } });
    expect(named.status, named.text).toBe(201);
    const request = { executionId: `exec_${Date.now()}`, organizationId: org.id, assistantId: named.body.id, channelIndex: 0, output: 'done', receivedAt: new Date().toISOString() };
    await expect(deliverToChannel(stack.runtime, sender, request)).rejects.toThrow(/github_token/);
    expect(sent).toHaveLength(0);

    const team = await createTestOrganization(stack.runtime.orm);
    expect((await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: team.admin.key, body: { detectors: { github_token: 'mask' } } })).status).toBe(200);
    const masked = await call(stack.baseUrl, 'POST', '/assistants', { key: team.member.key, body: { name: `Notifier ${SECRET}`, systemPrompt: 'hi', channels: [{ type: 'slack', target: '#general', token: 'xoxb-organization-own-app' }] } });
    const executionId = await recordRunningExecution(stack.runtime, { organizationId: team.id, assistantId: masked.body.id });
    await deliverToChannel(stack.runtime, sender, { ...request, executionId, organizationId: team.id, assistantId: masked.body.id });
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).not.toContain(SECRET);
  });
});
