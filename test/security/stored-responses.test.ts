// Attacker's tests for SECURITY.md's third round (bounded work and billing), items 3 and 5, on stored Responses API responses. Two members of
// one organization: the second tries to read, list, continue, reference and delete the first's
// stored response (everything another organization gets: 404, or the 400 of an unknown id); the
// organization's admin and owner read and delete it, never continue it, and the delete is audited.
// A deleted response's content resolves from no later response that built on it. An organization
// fills its stored-bytes quota (a tiny QUOTA_STORED_RESPONSE_BYTES); a request piles up input items,
// references and a long chain past the caps (a small BODY_LIMIT_BYTES); and a response-cache hit
// stores no second copy of the conversation it continued.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesStore } from '../../src/gateway/responses.service.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization, type TestUser } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const BODY_LIMIT_BYTES = 65_536;
/** What one request may resolve from stored responses: 4 x BODY_LIMIT_BYTES. */
const RESOLVE_LIMIT = 4 * BODY_LIMIT_BYTES;
const QUOTA_BYTES = 600_000;

let stack: Stack;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({
    worker: false,
    env: {
      GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })),
      QUOTA_STORED_RESPONSE_BYTES: String(QUOTA_BYTES),
      BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
    },
  });
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const create = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call<any>(stack.baseUrl, 'POST', '/responses', { key, body: { model: 'fake-model', ...body }, headers });
const get = (key: string, path: string) => call<any>(stack.baseUrl, 'GET', path, { key });
const UNKNOWN_RESPONSE = `resp_${'0'.repeat(32)}`;

async function stored(key: string, body: Record<string, unknown>, content?: string): Promise<any> {
  if (content !== undefined) upstream.enqueue({ content });
  const res = await create(key, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function inputItemsText(key: string, id: string): Promise<string> {
  const res = await get(key, `/responses/${id}/input_items?limit=100`);
  expect(res.status, res.text).toBe(200);
  return JSON.stringify(res.body.data);
}

/** Every stored response of the organization, decrypted (emptied rows as ''). */
async function decryptedRows(organizationId: string): Promise<{ id: string; text: string; deleted_at: unknown; previous_response_id: string | null; bytes: number }[]> {
  const rows = await stack.runtime.orm.em.fork().getConnection().execute<{ id: string; payload_ciphertext: string; deleted_at: unknown; previous_response_id: string | null }[]>(
    'select id, payload_ciphertext, deleted_at, previous_response_id from gateway_responses where organization_id = ?',
    [organizationId],
  );
  return rows.map((row) => ({ ...row, text: row.payload_ciphertext ? stack.runtime.secrets.decrypt(row.payload_ciphertext) : '', bytes: row.payload_ciphertext.length }));
}

async function storedTotal(organizationId: string): Promise<number> {
  const [row] = await stack.runtime.orm.em.fork().getConnection().execute<{ bytes: string | number }[]>('select bytes from gateway_response_bytes where organization_id = ?', [organizationId]);
  return Number(row?.bytes ?? 0);
}

describe('a stored response belongs to the user who stored it', () => {
  let org: TestOrganization;
  let other: TestUser;

  beforeAll(async () => {
    org = await createTestOrganization(stack.runtime.orm);
    other = await createTestUser(stack.runtime.orm, org.id, 'member');
  });

  it("answers another member 404 on GET, input_items and DELETE, and the unknown id's 400 on previous_response_id and item_reference; nothing reaches the upstream", async () => {
    const first = await stored(org.member.key, { input: 'the plan for zanzibar' }, 'the answer is marmalade');
    const [question] = (await get(org.member.key, `/responses/${first.id}/input_items`)).body.data;
    upstream.reset();

    for (const path of [`/responses/${first.id}`, `/responses/${first.id}/input_items`]) {
      const theirs = await get(other.key, path);
      const unknown = await get(other.key, path.replace(first.id, UNKNOWN_RESPONSE));
      expect(theirs.status, path).toBe(404);
      expect(theirs.body.error).toEqual({ ...unknown.body.error });
      expect(theirs.body.error.code).toBe('not_found');
    }
    const continued = await create(other.key, { previous_response_id: first.id, input: 'go on' });
    const unknownPrevious = await create(other.key, { previous_response_id: UNKNOWN_RESPONSE, input: 'go on' });
    expect(continued.status).toBe(400);
    expect(continued.body.error).toMatchObject({ code: 'bad_request', param: 'previous_response_id' });
    expect(continued.body.error.message).toBe(unknownPrevious.body.error.message.replace(UNKNOWN_RESPONSE, first.id));
    for (const id of [first.output[0].id, question.id]) {
      const referenced = await create(other.key, { input: [{ type: 'item_reference', id }] });
      expect(referenced.status, id).toBe(400);
      expect(referenced.body.error).toMatchObject({ code: 'bad_request', param: 'input[0].id', message: `Item with id '${id}' not found` });
    }
    const deleted = await call<any>(stack.baseUrl, 'DELETE', `/responses/${first.id}`, { key: other.key });
    expect(deleted.status).toBe(404);
    expect(deleted.body.error.code).toBe('not_found');
    expect(upstream.requests).toHaveLength(0);

    // Still the storing member's: readable and continued by them.
    expect((await get(org.member.key, `/responses/${first.id}`)).body.output_text).toBe('the answer is marmalade');
    await stored(org.member.key, { previous_response_id: first.id, input: 'go on' }, 'going on');
    expect(JSON.stringify(upstream.requests[0]!.body.messages)).toContain('zanzibar');
  });

  it("lets the organization's admin and owner read a member's response and its input items but not continue it; deletes are audited with who deleted it", async () => {
    const first = await stored(org.member.key, { input: 'the plan for zanzibar' }, 'the answer is marmalade');
    upstream.reset();
    for (const reader of [org.admin, org.owner]) {
      const read = await get(reader.key, `/responses/${first.id}`);
      expect(read.status, reader.role).toBe(200);
      expect(read.body.output_text).toBe('the answer is marmalade');
      expect(await inputItemsText(reader.key, first.id)).toContain('zanzibar');
      const continued = await create(reader.key, { previous_response_id: first.id, input: 'go on' });
      expect(continued.status, reader.role).toBe(400);
      expect(continued.body.error.param).toBe('previous_response_id');
      const referenced = await create(reader.key, { input: [{ type: 'item_reference', id: first.output[0].id }] });
      expect(referenced.status, reader.role).toBe(400);
      expect(referenced.body.error.param).toBe('input[0].id');
    }
    expect(upstream.requests).toHaveLength(0);

    const deleted = await call<any>(stack.baseUrl, 'DELETE', `/responses/${first.id}`, { key: org.admin.key });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ id: first.id, object: 'response', deleted: true });
    expect((await get(org.member.key, `/responses/${first.id}`)).status).toBe(404);
    const own = await stored(org.member.key, { input: 'mine to delete' }, 'ok');
    expect((await call(stack.baseUrl, 'DELETE', `/responses/${own.id}`, { key: org.member.key })).status).toBe(200);

    const audit = (await get(org.owner.key, '/audit-logs?limit=100')).body.auditLogs as any[];
    expect(audit.find((event) => event.targetId === first.id)).toMatchObject({
      action: 'response.deleted',
      actorUserId: org.admin.id,
      targetType: 'response',
      metadata: { ownerId: org.member.id },
      requestId: deleted.headers.get('x-request-id'),
    });
    expect(audit.find((event) => event.targetId === own.id)).toMatchObject({ action: 'response.deleted', actorUserId: org.member.id, metadata: { ownerId: org.member.id } });
  });

  it("leaves a deleted response's content out of every later response that continued or referenced it; an emptied row remains until it expires", async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const first = await stored(org.member.key, { input: 'the plan for zanzibar' }, 'the answer is marmalade');
    const continued = await stored(org.member.key, { previous_response_id: first.id, input: 'and then?' }, 'later answer');
    const referencing = await stored(org.member.key, { input: [{ type: 'item_reference', id: first.output[0].id }, { role: 'user', content: 'go on' }] }, 'third answer');
    // Before the delete, both resolve the first response's content.
    expect(await inputItemsText(org.member.key, continued.id)).toContain('zanzibar');
    expect(await inputItemsText(org.member.key, referencing.id)).toContain('marmalade');

    expect((await call(stack.baseUrl, 'DELETE', `/responses/${first.id}`, { key: org.member.key })).status).toBe(200);

    const continuedItems = await inputItemsText(org.member.key, continued.id);
    expect(continuedItems).toContain('and then?');
    expect(continuedItems).not.toMatch(/zanzibar|marmalade/);
    const referencingItems = await inputItemsText(org.member.key, referencing.id);
    expect(referencingItems).toContain('go on');
    expect(referencingItems).not.toContain('marmalade');
    upstream.reset();
    await stored(org.member.key, { previous_response_id: continued.id, input: 'once more' }, 'fine');
    const sent = JSON.stringify(upstream.requests[0]!.body.messages);
    expect(sent).toContain('and then?');
    expect(sent).toContain('later answer');
    expect(sent).not.toMatch(/zanzibar|marmalade/);
    const gone = await create(org.member.key, { input: [{ type: 'item_reference', id: first.output[0].id }] });
    expect(gone.status).toBe(400);
    expect(gone.body.error.param).toBe('input[0].id');

    // No stored row holds the content; the deleted one is an emptied row (id, owner, times, link).
    const rows = await decryptedRows(org.id);
    for (const row of rows) expect(row.text, row.id).not.toMatch(/zanzibar|marmalade/);
    expect(rows.find((row) => row.id === first.id)).toMatchObject({ text: '', bytes: 0, deleted_at: expect.anything() });
    expect(rows.find((row) => row.id === continued.id)).toMatchObject({ previous_response_id: first.id });

    const later = new Date(Date.now() + 31 * 86_400_000);
    const store = new ResponsesStore({ orm: stack.runtime.orm, secrets: stack.runtime.secrets, clock: { now: () => later }, retentionDays: 30, limits: stack.config });
    expect(await store.purgeExpired(org.id)).toBe(4);
    expect((await decryptedRows(org.id)).find((row) => row.id === first.id)).toBeUndefined();
  });
});

describe('stored bytes per organization', () => {
  it('answer store: true with 403 quota_exceeded (param store) once QUOTA_STORED_RESPONSE_BYTES is reached; store: false still answers; a delete frees room', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const bulky = 'q'.repeat(40_000);
    const ids: string[] = [];
    let refused: any;
    for (let attempt = 0; attempt < 30 && !refused; attempt++) {
      const res = await create(org.member.key, { input: bulky });
      if (res.status === 200) ids.push(res.body.id);
      else refused = res;
    }
    expect(refused?.status, refused?.text).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'quota_exceeded', param: 'store' });
    expect(refused.body.error.message).toContain('QUOTA_STORED_RESPONSE_BYTES');
    // The running total is exact: the stored rows' bytes, at or just under the quota.
    const rows = await decryptedRows(org.id);
    const total = await storedTotal(org.id);
    expect(total).toBe(rows.reduce((sum, row) => sum + row.bytes, 0));
    expect(total + bulky.length).toBeGreaterThan(QUOTA_BYTES);
    // Soft by what was in flight: the last one stored passed with room for its input, its answer came on top.
    expect(total).toBeLessThan(QUOTA_BYTES + 60_000);

    upstream.reset();
    const otherMember = await createTestUser(stack.runtime.orm, org.id, 'member');
    expect((await create(otherMember.key, { input: bulky })).status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
    expect((await create(org.member.key, { input: bulky, store: false })).status).toBe(200);
    const elsewhere = await createTestOrganization(stack.runtime.orm);
    expect((await create(elsewhere.member.key, { input: bulky })).status).toBe(200);

    expect((await call(stack.baseUrl, 'DELETE', `/responses/${ids[0]}`, { key: org.member.key })).status).toBe(200);
    expect(await storedTotal(org.id)).toBe((await decryptedRows(org.id)).reduce((sum, row) => sum + row.bytes, 0));
    expect((await create(org.member.key, { input: bulky })).status).toBe(200);
  });
});

describe('what one request may resolve', () => {
  it('refuses more than 2048 input items with 400 naming input', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const items = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: '' }));
    const over = await create(org.member.key, { input: items(2049) });
    expect(over.status, over.text).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'bad_request', param: 'input' });
    expect(upstream.requests).toHaveLength(0);
    expect((await create(org.member.key, { input: items(2048), store: false })).status).toBe(200);
  });

  it('refuses item_references that copy more than 4 x BODY_LIMIT_BYTES into the conversation, naming the reference', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const big = await stored(org.member.key, { input: 'b'.repeat(50_000) }, 'ok');
    const [item] = (await get(org.member.key, `/responses/${big.id}/input_items`)).body.data;
    const references = (n: number) => Array.from({ length: n }, () => ({ type: 'item_reference', id: item.id }));
    // Each reference copies the item's ~50 KB: five fit in 256 KiB, six do not.
    expect((await create(org.member.key, { input: references(5), store: false })).status).toBe(200);
    upstream.reset();
    const over = await create(org.member.key, { input: references(6), store: false });
    expect(over.status, over.text).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'bad_request', param: 'input[5].id' });
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses item_references into stored responses of more than 4 x BODY_LIMIT_BYTES in all, naming the first reference past it', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const responses = [];
    for (let i = 0; i < 5; i++) responses.push(await stored(org.member.key, { input: `${i}`.repeat(50_000) }, `answer ${i}`));
    const bytes = new Map((await decryptedRows(org.id)).map((row) => [row.id, row.bytes + 256]));
    // One small item from each: the copies are small, the responses read to find them are not.
    const input = responses.map((response) => ({ type: 'item_reference', id: response.output[0].id }));
    let read = 0;
    const firstPast = responses.findIndex((response) => (read += bytes.get(response.id)!) > RESOLVE_LIMIT);
    expect(firstPast).toBeGreaterThan(0);
    const over = await create(org.member.key, { input, store: false });
    expect(over.status, over.text).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'bad_request', param: `input[${firstPast}].id` });
    expect((await create(org.member.key, { input: input.slice(0, firstPast), store: false })).status).toBe(200);
  });

  it('refuses to continue a previous_response_id chain whose stored bytes pass 4 x BODY_LIMIT_BYTES, naming previous_response_id', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const chain: string[] = [(await stored(org.member.key, { input: 'a'.repeat(50_000) }, 'turn 0')).id];
    let refusedAt = -1;
    for (let turn = 1; turn <= 6 && refusedAt === -1; turn++) {
      const bytes = new Map((await decryptedRows(org.id)).map((row) => [row.id, row.bytes + 256]));
      const chainBytes = chain.reduce((sum, id) => sum + bytes.get(id)!, 0);
      upstream.enqueue({ content: `turn ${turn}` });
      const res = await create(org.member.key, { previous_response_id: chain.at(-1), input: 'a'.repeat(50_000) });
      if (chainBytes <= RESOLVE_LIMIT) {
        expect(res.status, `turn ${turn}: ${res.text}`).toBe(200);
        chain.push(res.body.id);
      } else {
        expect(res.status, `turn ${turn}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'bad_request', param: 'previous_response_id' });
        refusedAt = turn;
      }
    }
    expect(refusedAt).toBeGreaterThan(1);
    upstream.reset();
    const small = await create(org.member.key, { previous_response_id: chain.at(-1), input: 'short', store: false });
    expect(small.status).toBe(400);
    expect(small.body.error.param).toBe('previous_response_id');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('a response-cache hit', () => {
  it('stores no copy of the conversation it continued: its row keeps its own input and the answer, and previous_response_id on it resolves the whole conversation', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const first = await stored(org.member.key, { input: `zanzibar ${'z'.repeat(30_000)}` }, 'the first answer');
    const ask = () => create(org.member.key, { previous_response_id: first.id, input: 'a short question' }, { 'Cache-Control': 'max-age=300' });
    upstream.enqueue({ content: 'the cached answer' });
    const miss = await ask();
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const before = await storedTotal(org.id);
    const hit = await ask();
    expect(hit.status, hit.text).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.body.id).not.toBe(miss.body.id);
    expect(hit.body.output_text).toBe('the cached answer');
    expect(upstream.requests).toHaveLength(2);

    const rows = await decryptedRows(org.id);
    const firstRow = rows.find((row) => row.id === first.id)!;
    const hitRow = rows.find((row) => row.id === hit.body.id)!;
    expect(hitRow.previous_response_id).toBe(first.id);
    expect(hitRow.text).not.toContain('zanzibar');
    expect(hitRow.text).toContain('a short question');
    expect(hitRow.bytes).toBeLessThan(firstRow.bytes / 5);
    expect(await storedTotal(org.id)).toBe(before + hitRow.bytes);

    upstream.reset();
    await stored(org.member.key, { previous_response_id: hit.body.id, input: 'and then?' }, 'fine');
    const sent = JSON.stringify(upstream.requests[0]!.body.messages);
    for (const text of ['zanzibar', 'the first answer', 'a short question', 'the cached answer', 'and then?']) expect(sent).toContain(text);
    expect(await inputItemsText(org.member.key, hit.body.id)).toContain('zanzibar');
  });
});
