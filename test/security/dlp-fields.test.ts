// Attacker's tests for issue 29, finding 7: a secret placed in a field DLP did not read leaves for
// the upstream. The test walks the project's own request schemas (chat completions and
// embeddings, as JSON Schema) and fails on any free-text string field that is not listed in
// src/gateway/dlp/fields.ts; then it puts a secret in each listed field of a real request and
// expects 403 dlp_blocked. Identifiers (ids, function and tool names) are scanned but never
// masked: with the secrets detector set to mask, a secret there still blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatCompletionRequestSchema } from '../../src/gateway/chat.schemas.js';
import { CHAT_REQUEST_FIELDS, EMBEDDING_REQUEST_FIELDS, type FieldTreatment } from '../../src/gateway/dlp/fields.js';
import { embeddingRequestSchema } from '../../src/gateway/embeddings.schemas.js';
import type { ChannelMessage, ChannelTarget } from '../../src/channels/index.js';
import { deliverToChannel } from '../../src/webhooks/assistant-run.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const SECRET = `ghp_${'a1B2'.repeat(9)}`;

type Json = Record<string, any>;

/** Every string leaf of a JSON Schema: its path (`messages[].content[].text`) and whether its values are fixed (enum, const). */
function stringLeaves(schema: Json, path = '', out = new Map<string, 'free' | 'fixed'>()): Map<string, 'free' | 'fixed'> {
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) stringLeaves(branch, path, out);
  if (schema.type === 'string' || (schema.const !== undefined && typeof schema.const === 'string') || (Array.isArray(schema.enum) && schema.enum.every((v: unknown) => typeof v === 'string'))) {
    const fixed = schema.const !== undefined || Array.isArray(schema.enum);
    if (out.get(path) !== 'free') out.set(path, fixed ? 'fixed' : 'free');
  }
  if (schema.type === 'object' || schema.properties) {
    for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) stringLeaves(property, path ? `${path}.${name}` : name, out);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') stringLeaves(schema.additionalProperties, `${path}.*`, out);
  }
  if (schema.type === 'array' && schema.items) stringLeaves(schema.items, `${path}[]`, out);
  return out;
}

const leavesOf = (schema: z.ZodType) => stringLeaves(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);

describe('every free-text string field of the request schemas is listed for DLP', () => {
  it.each([
    ['chat completions', chatCompletionRequestSchema, CHAT_REQUEST_FIELDS],
    ['embeddings', embeddingRequestSchema, EMBEDDING_REQUEST_FIELDS],
  ] as const)('%s: no string field is left out of src/gateway/dlp/fields.ts', (_name, schema, fields: Readonly<Record<string, FieldTreatment>>) => {
    const leaves = leavesOf(schema);
    expect(leaves.size).toBeGreaterThan(0);
    const missing = [...leaves].filter(([path, kind]) => kind === 'free' && fields[path] === undefined).map(([path]) => path);
    expect(missing, 'string fields DLP does not know about').toEqual([]);
  });
});

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

/** A chat request with every field present, so each path below has somewhere to go. */
const fullChatRequest = (): Json => ({
  model: 'dev-echo',
  messages: [
    { role: 'system', content: 'Be brief.', name: 'setup' },
    { role: 'user', content: [{ type: 'text', text: 'Look at this.' }, { type: 'image_url', image_url: { url: 'https://images.example.test/a.png', detail: 'low' } }], name: 'alice' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
    { role: 'tool', content: 'result', tool_call_id: 'call_1' },
  ],
  tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
  tool_choice: { type: 'function', function: { name: 'lookup' } },
});

/** Sets the value at a schema path (`messages[].name`) on the first array element that has that field. */
function setPath(target: Json, path: string, value: unknown): boolean {
  const [head, ...rest] = path.split('.');
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
const valueFor = (kind: FieldTreatment) => (kind === 'url' ? `https://images.example.test/${SECRET}.png` : kind === 'json' ? { leaked: SECRET } : SECRET);

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
    const body: Json = { model: 'dev-embedding', input, user: path === 'user' ? SECRET : 'user-1' };
    const res = await call(stack.baseUrl, 'POST', '/embeddings', { key: org.member.key, body });
    expect(res.status, res.text).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'dlp_blocked', detectors: ['github_token'] });
  });

  it('the template itself passes, and a data: image URL is not text (left alone)', async () => {
    const body = fullChatRequest();
    body.messages[1].content[1].image_url.url = `data:image/png;base64,${Buffer.from(SECRET).toString('base64')}${SECRET}`;
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body });
    expect(res.status, res.text).toBe(200);
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
    const named = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: { name: `Notifier ${SECRET}`, systemPrompt: 'hi', channels: [{ type: 'slack', target: '#general' }] } });
    expect(named.status, named.text).toBe(201);
    const request = { executionId: `exec_${Date.now()}`, organizationId: org.id, assistantId: named.body.id, channelIndex: 0, output: 'done', receivedAt: new Date().toISOString() };
    await expect(deliverToChannel(stack.runtime, sender, request)).rejects.toThrow(/github_token/);
    expect(sent).toHaveLength(0);

    const team = await createTestOrganization(stack.runtime.orm);
    expect((await call(stack.baseUrl, 'PUT', '/dlp/policy', { key: team.admin.key, body: { detectors: { github_token: 'mask' } } })).status).toBe(200);
    const masked = await call(stack.baseUrl, 'POST', '/assistants', { key: team.member.key, body: { name: `Notifier ${SECRET}`, systemPrompt: 'hi', channels: [{ type: 'slack', target: '#general' }] } });
    await deliverToChannel(stack.runtime, sender, { ...request, organizationId: team.id, assistantId: masked.body.id });
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).not.toContain(SECRET);
  });
});
