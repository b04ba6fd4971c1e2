// Stored responses of the Responses API (`store`, on by default as OpenAI's): what lets a later
// call continue with `previous_response_id` or point at an earlier item with `item_reference`,
// and what GET/DELETE /v1/responses/{id} read. Per organization, encrypted at rest (SecretBox),
// kept RESPONSES_RETENTION_DAYS; another organization's ids, like expired ones, are not found.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { Orm } from '../db/orm.js';
import { GroupCommit } from '../db/group-commit.js';
import { runPrepared } from '../db/prepared.js';
import { badRequest, notFound } from '../errors.js';
import { StoredResponse, StoredResponseItem } from './responses.entities.js';
import { inputItemPrefix, inputItems, listedInputItem, type ItemPrefix, type OutputItem, type ResolvedItem, type ResponseIds, type ResponseObject } from './wire/responses.js';
import type { InputItemsQuery, ResponsesRequest } from './wire/responses.schemas.js';

export interface ResponsesStoreDeps {
  orm: Orm;
  secrets: SecretBox;
  clock: Clock;
  retentionDays: number;
}

/** What a stored response keeps: the object as answered and the conversation it answered. */
interface StoredPayload {
  response: ResponseObject;
  conversation: ResolvedItem[];
}

/**
 * The ids of one new response in OpenAI's style: `resp_` and 32 random hex digits (122 random
 * bits, from randomUUID, which draws on a buffer of entropy), and for its items (`msg_`, `fc_`,
 * `fco_`, `rs_`) the same 32 digits and a 4-digit counter. An item id so names the response that keeps
 * it: an `item_reference` reads that one response row, and a response is one row, not one per item.
 */
export class ResponseIdSequence implements ResponseIds {
  readonly response: string;
  private next = 0;
  private readonly hex = randomUUID().replaceAll('-', '');

  constructor() {
    this.response = `resp_${this.hex}`;
  }

  item(prefix: ItemPrefix): string {
    return `${prefix}_${this.hex}${(this.next++).toString(16).padStart(4, '0')}`;
  }
}

const ITEM_ID = /^(?:msg|fc|fco|rs)_([0-9a-f]{32})[0-9a-f]{4,}$/;

/** The response an item id was made for, or undefined for an id of another shape (a client's own, or one stored before). */
export function responseIdOfItem(itemId: string): string | undefined {
  const hex = ITEM_ID.exec(itemId)?.[1];
  return hex === undefined ? undefined : `resp_${hex}`;
}

/** A stored response as the insert statement takes it: ciphertext, owner and times (epoch ms). */
interface ResponseRow {
  id: string;
  organizationId: string;
  payload: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * The batch travels as five array parameters, one per column (unnest pairs them up row by row).
 * The statement commits asynchronously: `set_config(..., true)` is SET LOCAL synchronous_commit =
 * off for its own implicit transaction, in the same round trip. The rows are visible to every
 * connection (every API process) at once; only the WAL flush is not waited for, so a crash of
 * PostgreSQL itself may lose the responses of its last moments (up to 3 x wal_writer_delay, 600 ms
 * by default), never half of one. The answer's audit and usage rows are written later still.
 */
const INSERT_RESPONSES_SQL = `
insert into "gateway_responses" ("id", "organization_id", "payload_ciphertext", "created_at", "expires_at")
select r."id", r."organization_id", r."payload", to_timestamp(r."created_ms" / 1000), to_timestamp(r."expires_ms" / 1000)
from unnest(?::text[], ?::uuid[], ?::text[], ?::float8[], ?::float8[]) as r("id", "organization_id", "payload", "created_ms", "expires_ms")
where set_config('synchronous_commit', 'off', true) = 'off'`;

/**
 * A PostgreSQL array literal of values that need no quoting inside one, joined rather than escaped:
 * serializing the rows as JSON scanned every byte of every ciphertext for characters to escape,
 * ~4 µs per stored response. Every value is this module's own: response ids (`resp_` and hex),
 * the caller's organization id (a uuid, checked here as the ids are), SecretBox ciphertexts (`v1:`
 * and base64url: letters, digits, `-`, `_`, `:` by construction, not scanned again) and integers.
 */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/** What an id must look like to go into an array literal unquoted. */
const PLAIN_ID = /^[\w-]+$/;

function plainIds(values: readonly string[]): string {
  for (const value of values) if (!PLAIN_ID.test(value)) throw new Error(`id '${value}' cannot be stored`);
  return arrayLiteral(values);
}

/** How often one store deletes expired responses (on a save, off the answer's path). */
const PURGE_INTERVAL_MS = 3_600_000;

export class ResponsesStore {
  private lastPurge = 0;
  /** A statement's system calls cost more than its rows: under load, one statement every 2 ms at most. */
  private readonly writes = new GroupCommit<ResponseRow>((rows) => this.insert(rows), { minSpacingMs: 2 });

  constructor(private readonly deps: ResponsesStoreDeps) {}

  /**
   * The conversation a request answers, every reference resolved: the previous response's
   * conversation and output (when `previous_response_id` names one), then the input items.
   * 400 naming the field when a reference does not resolve in the caller's organization.
   */
  async conversation(organizationId: string, body: ResponsesRequest): Promise<ResolvedItem[]> {
    const items = inputItems(body.input);
    if (items.length === 0 && !body.previous_response_id) throw badRequest('input is required', 'input');
    const earlier = body.previous_response_id ? await this.previous(organizationId, body.previous_response_id) : [];
    const references = items.flatMap((item) => (item.type === 'item_reference' ? [item.id] : []));
    const referenced = references.length > 0 ? await this.items(organizationId, references) : new Map<string, ResolvedItem>();
    const resolved = items.map((item, index) => {
      if (item.type !== 'item_reference') return item;
      const found = referenced.get(item.id);
      if (!found) throw badRequest(`Item with id '${item.id}' not found`, `input[${index}].id`);
      return found;
    });
    return [...earlier, ...resolved];
  }

  /**
   * Keeps a finished response (`responseJson`: the answer's own text; its id is `ids.response`)
   * and its conversation as one row, committed before the client gets
   * the answer: its ids (the response's and its items') must resolve at once, on any API process.
   * Input items the client sent without an id get one from the response's `ids`, so they can be
   * referenced too. Saves that arrive while another is being written share the next statement
   * (group commit).
   */
  async save(organizationId: string, responseJson: string, conversation: ResolvedItem[], ids: ResponseIdSequence): Promise<void> {
    const now = this.deps.clock.now().getTime();
    this.purgeNowAndThen(now);
    // Every stored input item gets an id (the client may send none): input_items pages by them.
    const items = conversation.map((item) => (item.id ? item : { ...item, id: ids.item(inputItemPrefix(item)) }));
    // A StoredPayload, written around the response's JSON (the answer's own text) rather than serialized again.
    const payload = `{"response":${responseJson},"conversation":${JSON.stringify(items)}}`;
    await this.writes.add({
      id: ids.response,
      organizationId,
      payload: this.deps.secrets.encrypt(payload),
      createdAt: now,
      expiresAt: now + this.deps.retentionDays * 86_400_000,
    });
  }

  /**
   * One statement for a batch of responses, its columns as bound array parameters (not quoted into
   * the SQL text); the statement is prepared once per connection (runPrepared).
   */
  private async insert(rows: ResponseRow[]): Promise<void> {
    await runPrepared(this.deps.orm, 'gateway-responses-insert', INSERT_RESPONSES_SQL, [
      plainIds(rows.map((row) => row.id)),
      plainIds(rows.map((row) => row.organizationId)),
      arrayLiteral(rows.map((row) => row.payload)),
      arrayLiteral(rows.map((row) => row.createdAt)),
      arrayLiteral(rows.map((row) => row.expiresAt)),
    ]);
  }

  /** Deletes expired responses (items stored before item ids named their response go with them), of every organization or of one; returns how many. */
  async purgeExpired(organizationId?: string): Promise<number> {
    const expired = { expiresAt: { $lte: this.deps.clock.now() } };
    return this.deps.orm.em.fork().nativeDelete(StoredResponse, organizationId === undefined ? expired : { ...expired, organizationId });
  }

  /** At most once an interval per store: expired rows read as absent anyway, this only frees their space. */
  private purgeNowAndThen(now: number): void {
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    this.purgeExpired().catch(() => {
      this.lastPurge = 0;
    });
  }

  /** GET /v1/responses/{id}: the response object as answered; 404 when absent, expired or another organization's. */
  async get(organizationId: string, id: string): Promise<ResponseObject> {
    return (await this.payload(organizationId, id)).response;
  }

  /**
   * GET /v1/responses/{id}/input_items: the conversation the response answered (with
   * previous_response_id, the earlier turns too), a cursor page in OpenAI's list shape.
   */
  async inputItems(organizationId: string, id: string, query: InputItemsQuery) {
    const { conversation } = await this.payload(organizationId, id);
    // Responses stored before input items had ids get stable ones from their position.
    const items = conversation.map((item, index) => listedInputItem({ ...item, id: item.id ?? `${inputItemPrefix(item)}_${id.slice('resp_'.length)}_${index}` }));
    const ordered = query.order === 'asc' ? items : items.reverse();
    let start = 0;
    if (query.after !== undefined) {
      start = ordered.findIndex((item) => item.id === query.after) + 1;
      if (start === 0) throw badRequest(`No input item with id '${query.after}' in response '${id}'`, 'after');
    }
    const data = ordered.slice(start, start + query.limit);
    return { object: 'list' as const, data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + data.length < ordered.length };
  }

  /** DELETE /v1/responses/{id}: removes the response, and with it every item id it resolved. */
  async remove(organizationId: string, id: string): Promise<void> {
    const em = this.deps.orm.em.fork();
    const deleted = await em.nativeDelete(StoredResponse, { id, organizationId, expiresAt: { $gt: this.deps.clock.now() } });
    if (deleted === 0) throw notFound('Response');
    await em.nativeDelete(StoredResponseItem, { responseId: id, organizationId });
  }

  private async payload(organizationId: string, id: string): Promise<StoredPayload> {
    const row = await this.deps.orm.em.fork().findOne(StoredResponse, { id, organizationId, expiresAt: { $gt: this.deps.clock.now() } });
    if (!row) throw notFound('Response');
    return JSON.parse(this.deps.secrets.decrypt(row.payloadCiphertext)) as StoredPayload;
  }

  private async previous(organizationId: string, id: string): Promise<ResolvedItem[]> {
    const stored = await this.payload(organizationId, id).catch(() => {
      throw badRequest(`Previous response with id '${id}' not found`, 'previous_response_id');
    });
    return [...stored.conversation, ...stored.response.output.map(asInputItem)];
  }

  /**
   * The items the ids name (and the other items of the same responses), in the caller's
   * organization and unexpired: an id made for a response (responseIdOfItem) is looked up in that
   * response's output and conversation, one read for all of them; any other id only among the
   * items kept one row each before (gateway_response_items, read until those rows expire).
   */
  private async items(organizationId: string, ids: string[]): Promise<Map<string, ResolvedItem>> {
    const responseIds = new Set<string>();
    const earlier = new Set<string>();
    for (const id of ids) {
      const responseId = responseIdOfItem(id);
      if (responseId === undefined) earlier.add(id);
      else responseIds.add(responseId);
    }
    const notExpired = { $gt: this.deps.clock.now() };
    const found = new Map<string, ResolvedItem>();
    const em = this.deps.orm.em.fork();
    if (responseIds.size > 0) {
      for (const row of await em.find(StoredResponse, { id: { $in: [...responseIds] }, organizationId, expiresAt: notExpired })) {
        const { response, conversation } = JSON.parse(this.deps.secrets.decrypt(row.payloadCiphertext)) as StoredPayload;
        // Only the items made for this response: a conversation also carries earlier responses' items.
        for (const item of [...conversation, ...response.output.map(asInputItem)]) if (item.id && responseIdOfItem(item.id) === row.id) found.set(item.id, item);
      }
    }
    if (earlier.size > 0) {
      for (const row of await em.find(StoredResponseItem, { id: { $in: [...earlier] }, organizationId, expiresAt: notExpired })) {
        found.set(row.id, JSON.parse(this.deps.secrets.decrypt(row.itemCiphertext)) as ResolvedItem);
      }
    }
    return found;
  }
}

/** An output item as the input item a later call would send for it. */
function asInputItem(item: OutputItem): ResolvedItem {
  if (item.type === 'reasoning') return { type: 'reasoning', id: item.id, summary: item.summary, content: item.content, encrypted_content: item.encrypted_content };
  if (item.type === 'function_call') return { type: 'function_call', id: item.id, call_id: item.call_id, name: item.name, arguments: item.arguments };
  return { type: 'message', id: item.id, role: 'assistant', content: item.content.map((part) => ({ type: 'output_text' as const, text: part.text })) };
}
