// A long conversation kept by the gateway, read back in batches (responses.conversation.ts): three
// stored turns of ~500 KiB each, more than one read batch (READ_BATCH_BYTES) in all, so the older
// turns come from the batch reads after the first. Continuing the last turn sends every turn to the
// upstream, in order; references into the older turns resolve; a deleted turn in the middle (an
// emptied row read in a batch) is left out.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READ_BATCH_BYTES } from '../../src/gateway/responses.conversation.js';
import { fakeGatewayConfig, startFakeUpstream, writeGatewayConfig, type FakeUpstream } from '../fixtures/fake-upstream.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const TURN_CHARS = 500_000;

let stack: Stack;
let upstream: FakeUpstream;
let org: TestOrganization;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  stack = await startStack({ worker: false, env: { GATEWAY_CONFIG: writeGatewayConfig(fakeGatewayConfig({ primary: upstream })) } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await stack?.stop();
  await upstream?.close();
});

const create = (body: Record<string, unknown>) => call<any>(stack.baseUrl, 'POST', '/responses', { key: org.member.key, body: { model: 'fake-model', ...body } });

/** A turn of ~TURN_CHARS whose start and end name it. */
const turnText = (turn: number) => `start-of-turn-${turn} ${'word '.repeat(TURN_CHARS / 5)} end-of-turn-${turn}`;

async function storedChain(turns: number): Promise<string[]> {
  const ids: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    upstream.enqueue({ content: `answer-${turn}` });
    const res = await create({ input: turnText(turn), ...(ids.length ? { previous_response_id: ids.at(-1) } : {}) });
    expect(res.status, res.text).toBe(200);
    ids.push(res.body.id);
  }
  return ids;
}

/** Where each marker appears in what the upstream was sent (-1 when missing). */
function positions(sent: string, markers: string[]): number[] {
  return markers.map((marker) => sent.indexOf(marker));
}

describe('a conversation longer than one read batch', () => {
  it('continues with every stored turn sent upstream in order', async () => {
    const ids = await storedChain(3);
    const rows = await stack.runtime.orm.em.fork().getConnection().execute<{ bytes: number }[]>(
      'select octet_length(payload_ciphertext) as bytes from gateway_responses where id = any(?::text[])',
      [`{${ids.join(',')}}`],
    );
    // The premise: no two turns fit in one batch, so each older turn is read by a batch of its own.
    expect(rows.every((row) => Number(row.bytes) > READ_BATCH_BYTES / 2)).toBe(true);
    upstream.reset();
    upstream.enqueue({ content: 'the last answer' });
    const res = await create({ previous_response_id: ids.at(-1), input: 'and then?', store: false });
    expect(res.status, res.text).toBe(200);
    const sent = JSON.stringify(upstream.requests[0]!.body.messages);
    const markers = [0, 1, 2].flatMap((turn) => [`start-of-turn-${turn}`, `end-of-turn-${turn}`, `answer-${turn}`]);
    const at = positions(sent, [...markers, 'and then?']);
    expect(at.every((position) => position >= 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('resolves item_references into turns read in later batches, and leaves out a deleted turn in the middle', async () => {
    const ids = await storedChain(3);
    const items = await call<any>(stack.baseUrl, 'GET', `/responses/${ids[0]}/input_items`, { key: org.member.key });
    expect(items.status, items.text).toBe(200);
    const firstTurnItem = items.body.data[0].id as string;

    const deleted = await call<any>(stack.baseUrl, 'DELETE', `/responses/${ids[1]}`, { key: org.member.key });
    expect(deleted.status, deleted.text).toBe(200);

    upstream.reset();
    upstream.enqueue({ content: 'fine' });
    const res = await create({ previous_response_id: ids[2], input: [{ type: 'item_reference', id: firstTurnItem }, { role: 'user', content: 'compare' }], store: false });
    expect(res.status, res.text).toBe(200);
    const sent = JSON.stringify(upstream.requests[0]!.body.messages);
    expect(sent).not.toContain('start-of-turn-1');
    expect(sent).not.toContain('answer-1');
    // Turn 0 twice: once from the chain, once copied by the reference, after the last turn.
    const first = sent.indexOf('start-of-turn-0');
    const last = sent.indexOf('start-of-turn-2');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last).toBeGreaterThan(first);
    expect(sent.indexOf('start-of-turn-0', last)).toBeGreaterThan(last);
  });
});
