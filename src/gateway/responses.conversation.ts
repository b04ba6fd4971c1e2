// Reading stored conversations back (responses.service.ts stores them): the chain of responses a
// response continued, by their `previous_response_id` links in one recursive read, and the items
// `item_reference`s name, by one read of the responses they point into (each read once, whatever
// points into it), all among one user's unexpired responses of one organization.
// What one resolution may cost is capped (`limitBytes`), in two measures, each linear in what is
// resolved: the stored bytes read (each response's ciphertext, plus 256 so a chain of emptied
// responses costs something too; the database stops walking past the cap) and the bytes references
// copy into the conversation (each reference its item's JSON size, measured once per item). A
// request past either gets 400 naming the field that asked for it.
// A deleted (emptied) or expired response leaves its part out of the turns after it; a request's
// own reference to one of its items is a 400, as for an id that never existed.
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { Orm } from '../db/orm.js';
import { badRequest, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import type { OutputItem, ResolvedItem, ResponseObject } from './wire/responses.js';
import type { ResponsesInputItem } from './wire/responses.schemas.js';

/** An input item as a row keeps it: resolved, or a reference read when the row is. */
export type StoredItem = ResolvedItem | Extract<ResponsesInputItem, { type: 'item_reference' }>;

/**
 * A stored response: the object as answered and its request's own input items. Rows stored before
 * conversations were referred to carry `conversation` (every earlier turn copied) instead of `input`.
 */
export interface StoredPayload {
  response: ResponseObject;
  input?: StoredItem[];
  conversation?: ResolvedItem[];
}

export interface ConversationReaderDeps {
  orm: Orm;
  secrets: SecretBox;
  clock: Clock;
  /** The cap of each measure for a request; listing a stored response's items may take half as much again. */
  limitBytes: number;
}

type Scope = { organizationId: string; userId: string | null };

/** A response of a chain: `payload` undefined once deleted. */
interface ChainRow {
  id: string;
  userId: string | null;
  payload: StoredPayload | undefined;
}

/** What each response in a read costs beside its bytes. */
const ROW_BYTES = 256;

const ITEM_ID = /^(?:msg|fc|fco|rs)_([0-9a-f]{32})[0-9a-f]{4,}$/;

/** The response an item id was made for, or undefined for an id of another shape (a client's own, or one stored before). */
export function responseIdOfItem(itemId: string): string | undefined {
  const hex = ITEM_ID.exec(itemId)?.[1];
  return hex === undefined ? undefined : `resp_${hex}`;
}

/**
 * The chain from one response back through the ones it continued, oldest first: whether each row
 * lies within the cap (the walk stops past it), and its ciphertext while the bytes read so far stay
 * within the first batch (READ_BATCH_BYTES: a longer chain's older rows are read in batches after,
 * so no result is parsed in one piece past a batch); emptied rows are walked through. The first response must be unexpired, not deleted and,
 * unless `any user` is true, the given user's; the rest must be its owner's.
 */
const CHAIN_SQL = `
with recursive "chain" as (
  select r."id", r."user_id", r."previous_response_id", r."payload_ciphertext", octet_length(r."payload_ciphertext") as "size", octet_length(r."payload_ciphertext")::bigint + ${ROW_BYTES} as "bytes", 1 as "depth"
  from "gateway_responses" r
  where r."id" = ? and r."organization_id" = ? and r."expires_at" > to_timestamp(?::float8 / 1000) and r."deleted_at" is null and (r."user_id" = ? or ?::boolean)
  union all
  select r."id", r."user_id", r."previous_response_id", r."payload_ciphertext", octet_length(r."payload_ciphertext"), c."bytes" + octet_length(r."payload_ciphertext") + ${ROW_BYTES}, c."depth" + 1
  from "chain" c join "gateway_responses" r on r."id" = c."previous_response_id"
  where c."bytes" <= ?::bigint and r."organization_id" = ? and r."user_id" = c."user_id" and r."expires_at" > to_timestamp(?::float8 / 1000)
)
select "id", "user_id", "size", "bytes" <= ?::bigint as "within", case when "bytes" <= ?::bigint then "payload_ciphertext" end as "payload"
from "chain" order by "depth" desc`;

/**
 * The responses references point into, in order of first reference: whether each lies within what
 * is left of the cap, and its ciphertext while the bytes read stay within the first batch (the
 * rest are read in batches after, as a chain's are).
 */
const REFERENCED_SQL = `
select "id", "size", "bytes" <= ?::bigint as "within", case when "bytes" <= ?::bigint then "payload_ciphertext" end as "payload" from (
  select w."id", r."payload_ciphertext", octet_length(r."payload_ciphertext") as "size", sum(octet_length(r."payload_ciphertext") + ${ROW_BYTES}) over (order by w."n") as "bytes"
  from unnest(?::text[]) with ordinality as w("id", "n")
  join "gateway_responses" r on r."id" = w."id"
  where r."organization_id" = ? and r."user_id" = ? and r."expires_at" > to_timestamp(?::float8 / 1000) and r."deleted_at" is null
) as "referenced"`;

/** A batch of the rows a first read found (its owner, expiry and cap checked there) and left for later; the organization checked again. */
const BATCH_SQL = `select "id", "payload_ciphertext" as "payload" from "gateway_responses" where "id" = any(?::text[]) and "organization_id" = ?`;

/** A row a first read found: its ciphertext's size, whether it lies within the cap, and the ciphertext itself while within the first batch. */
interface StoredRow {
  id: string;
  /** octet_length, which a driver may return as a string. */
  size: number | string;
  within: boolean;
  payload: string | null;
}

/**
 * What one read hands back in one result at most: parsing a result, decrypting and parsing a
 * payload all run on the event loop, so a long conversation is read in batches of about this many
 * stored bytes, the loop given back between batches and between payloads.
 */
export const READ_BATCH_BYTES = 1 << 20;

/** A turn of the event loop for whatever else waits on it. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Items kept one row each before item ids named their response (read until those rows expire), of the user's responses. */
const LEGACY_ITEMS_SQL = `
select i."id", i."item_ciphertext" as "ciphertext" from "gateway_response_items" i join "gateway_responses" r on r."id" = i."response_id"
where i."id" = any(array(select json_array_elements_text(?::json))) and i."organization_id" = ? and i."expires_at" > to_timestamp(?::float8 / 1000)
  and r."user_id" = ? and r."deleted_at" is null`;

/**
 * A PostgreSQL array literal of values that need no quoting inside one, joined rather than escaped:
 * serializing the rows as JSON scanned every byte of every ciphertext for characters to escape,
 * ~4 µs per stored response. Every value is the gateway's own: response ids (`resp_` and hex),
 * organization and user ids (uuids, checked as the ids are), SecretBox ciphertexts (`v1:` and
 * base64url: letters, digits, `-`, `_`, `:` by construction, not scanned again), integers, and
 * NULL for a response that continued none.
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/** What an id must look like to go into an array literal unquoted. */
const PLAIN_ID = /^[\w-]+$/;

/** Ids (and NULL for null) as an array literal; anything that would need quoting is refused. */
export function plainIds(values: readonly (string | null)[]): string {
  for (const value of values) if (value !== null && (!PLAIN_ID.test(value) || value.toUpperCase() === 'NULL')) throw new Error(`id '${value}' cannot be stored`);
  return arrayLiteral(values.map((value) => value ?? 'NULL'));
}

/** The storing user's; the organization's admins and owner read anyone's. */
export function readsAnyones(caller: Pick<Caller, 'role'>): boolean {
  return caller.role === 'admin' || caller.role === 'owner';
}

export class ConversationReader {
  constructor(private readonly deps: ConversationReaderDeps) {}

  /**
   * The conversation a request answers: the chain it continues (the previous response's whole
   * conversation and output), then its own items, references resolved; only the caller's own
   * responses resolve.
   */
  async forRequest(caller: Pick<Caller, 'organizationId' | 'userId'>, previousId: string | undefined, items: ResponsesInputItem[]): Promise<ResolvedItem[]> {
    const scope = { organizationId: caller.organizationId, userId: caller.userId };
    const budget = new Resolution(this.deps.limitBytes, 'previous_response_id');
    const chain = previousId === undefined ? [] : await this.chain(scope, previousId, false, budget);
    if (previousId !== undefined && chain.length === 0) throw badRequest(`Previous response with id '${previousId}' not found`, 'previous_response_id');
    const references = items.flatMap((item, index) => (item.type === 'item_reference' ? [{ id: item.id, param: `input[${index}].id` }] : []));
    await this.readReferenced(scope, chain, references, budget);
    const earlier = chain.flatMap((row) => [...budget.inputOf(row), ...outputOf(row)]);
    const own = items.map((item, index) => (item.type === 'item_reference' ? budget.copy(item.id, `input[${index}].id`, true)! : item));
    return [...earlier, ...own];
  }

  /** GET .../input_items: the conversation a stored response answered (its own output not included). */
  async ofResponse(caller: Pick<Caller, 'organizationId' | 'userId' | 'role'>, id: string): Promise<ResolvedItem[]> {
    // Its own row on top of what it resolved when it was made (its input and answer: at most a body and an answer).
    const budget = new Resolution(this.deps.limitBytes * 1.5, null);
    const chain = await this.chain({ organizationId: caller.organizationId, userId: caller.userId }, id, readsAnyones(caller), budget);
    const response = chain.at(-1);
    if (!response) throw notFound('Response');
    // Its references resolve among its owner's responses, whoever reads it.
    await this.readReferenced({ organizationId: caller.organizationId, userId: response.userId }, chain, [], budget);
    return chain.flatMap((row) => (row === response ? budget.inputOf(row) : [...budget.inputOf(row), ...outputOf(row)]));
  }

  /** The chain from `id` back, oldest first (empty when `id` is not found), its rows' items known to the resolution. */
  private async chain(scope: Scope, id: string, anyUser: boolean, budget: Resolution): Promise<ChainRow[]> {
    const now = this.deps.clock.now().getTime();
    const { organizationId } = scope;
    const rows = await this.deps.orm.em
      .fork()
      .getConnection()
      .execute<(StoredRow & { user_id: string | null })[]>(
        CHAIN_SQL,
        [id, organizationId, now, scope.userId, anyUser, budget.limit, organizationId, now, budget.limit, READ_BATCH_BYTES],
        'all',
      );
    if (rows.some((row) => !row.within)) throw budget.overLimit(budget.chainParam);
    const payloads = await this.open(rows, organizationId);
    return rows.map((row) => {
      const chained = { id: row.id, userId: row.user_id, payload: payloads.get(row.id) };
      budget.read(chained, Number(row.size) + ROW_BYTES);
      return chained;
    });
  }

  /**
   * Reads, at once, the responses the chain's stored references and the request's own point into
   * (those of the chain itself are read already), and the items of the rows kept one per item before.
   */
  private async readReferenced(scope: Scope, chain: ChainRow[], requested: { id: string; param: string }[], budget: Resolution): Promise<void> {
    const ids = [...chain.flatMap((row) => (row.payload?.input ?? []).flatMap((item) => (item.type === 'item_reference' ? [item.id] : []))), ...requested.map((ref) => ref.id)];
    if (ids.length === 0 || scope.userId === null) return;
    const chained = new Set(chain.map((row) => row.id));
    const responses = new Set<string>();
    const legacy = new Set<string>();
    for (const id of ids) {
      const response = responseIdOfItem(id);
      if (response === undefined) legacy.add(id);
      else if (!chained.has(response)) responses.add(response);
    }
    const connection = this.deps.orm.em.fork().getConnection();
    const now = this.deps.clock.now().getTime();
    if (responses.size > 0) {
      const rows = await connection.execute<StoredRow[]>(
        REFERENCED_SQL,
        [budget.limit - budget.readBytes, READ_BATCH_BYTES, plainIds([...responses]), scope.organizationId, scope.userId, now],
        'all',
      );
      const within = rows.filter((row) => row.within);
      for (const row of rows) if (!row.within) budget.beyond.add(row.id);
      const payloads = await this.open(within, scope.organizationId);
      for (const row of within) budget.read({ id: row.id, payload: payloads.get(row.id) }, Number(row.size) + ROW_BYTES);
    }
    if (legacy.size > 0) {
      const rows = await connection.execute<{ id: string; ciphertext: string }[]>(LEGACY_ITEMS_SQL, [JSON.stringify([...legacy]), scope.organizationId, now, scope.userId], 'all');
      for (const row of rows) budget.items.set(row.id, JSON.parse(this.deps.secrets.decrypt(row.ciphertext)) as ResolvedItem);
    }
  }

  /**
   * The rows' payloads (none for an emptied row), each decrypted and parsed with the event loop
   * given back after it: those the first read returned, the rest read in batches of about
   * READ_BATCH_BYTES (at least one row each; a row is at most a body and its answer).
   */
  private async open(rows: StoredRow[], organizationId: string): Promise<Map<string, StoredPayload>> {
    const opened = new Map<string, StoredPayload>();
    const open = async (id: string, ciphertext: string) => {
      if (ciphertext.length === 0) return;
      opened.set(id, JSON.parse(this.deps.secrets.decrypt(ciphertext)) as StoredPayload);
      await yieldToLoop();
    };
    const batches: string[][] = [];
    let batchBytes = Infinity;
    for (const row of rows) {
      if (row.payload !== null) {
        await open(row.id, row.payload);
        continue;
      }
      if (batchBytes + Number(row.size) > READ_BATCH_BYTES) {
        batches.push([]);
        batchBytes = 0;
      }
      batches.at(-1)!.push(row.id);
      batchBytes += Number(row.size);
    }
    const connection = this.deps.orm.em.fork().getConnection();
    for (const ids of batches) {
      const batch = await connection.execute<{ id: string; payload: string }[]>(BATCH_SQL, [plainIds(ids), organizationId], 'all');
      for (const row of batch) await open(row.id, row.payload);
    }
    return opened;
  }
}

/** One resolution's budget and the items it has read, by id. */
class Resolution {
  readBytes = 0;
  private copiedBytes = 0;
  readonly items = new Map<string, ResolvedItem>();
  private readonly sizes = new Map<string, number>();
  /** Responses references point into that lay past the read cap. */
  readonly beyond = new Set<string>();

  /** `chainParam`: the field a request's chain and its stored references answer to (null for a read). */
  constructor(
    readonly limit: number,
    readonly chainParam: string | null,
  ) {}

  /** A response read: its bytes counted, the items made for it known by id. */
  read(row: { id: string; payload: StoredPayload | undefined }, bytes: number): void {
    this.readBytes += bytes;
    if (!row.payload) return;
    const { input, conversation, response } = row.payload;
    // Only the items made for this response: a stored conversation also carries earlier responses' items.
    for (const item of input ?? conversation ?? []) if (item.type !== 'item_reference' && item.id && responseIdOfItem(item.id) === row.id) this.items.set(item.id, item);
    for (const item of response.output) if (responseIdOfItem(item.id) === row.id) this.items.set(item.id, asInputItem(item));
  }

  /** A chain row's input items, its references resolved (those to deleted or expired items left out). */
  inputOf(row: ChainRow): ResolvedItem[] {
    if (!row.payload) return [];
    if (row.payload.conversation) return row.payload.conversation;
    return (row.payload.input ?? []).flatMap((item) => (item.type === 'item_reference' ? (this.copy(item.id, this.chainParam, false) ?? []) : [item]));
  }

  /** The item a reference names, its size counted; undefined (or 400 when `required`) when it is not there to read. */
  copy(id: string, param: string | null, required: boolean): ResolvedItem | undefined {
    const item = this.items.get(id);
    if (item === undefined) {
      const response = responseIdOfItem(id);
      if (response !== undefined && this.beyond.has(response)) throw this.overLimit(param);
      if (required) throw badRequest(`Item with id '${id}' not found`, param);
      return undefined;
    }
    let size = this.sizes.get(id);
    if (size === undefined) {
      size = Buffer.byteLength(JSON.stringify(item));
      this.sizes.set(id, size);
    }
    this.copiedBytes += size;
    if (this.copiedBytes > this.limit) throw this.overLimit(param);
    return item;
  }

  overLimit(param: string | null) {
    return badRequest(`What this resolves from stored responses is over the ${this.limit} bytes allowed; send the items themselves (store: false) or start a new conversation`, param);
  }
}

function outputOf(row: ChainRow): ResolvedItem[] {
  return row.payload ? row.payload.response.output.map(asInputItem) : [];
}

/** An output item as the input item a later call would send for it. */
function asInputItem(item: OutputItem): ResolvedItem {
  if (item.type === 'reasoning') return { type: 'reasoning', id: item.id, summary: item.summary, content: item.content, encrypted_content: item.encrypted_content };
  if (item.type === 'function_call') return { type: 'function_call', id: item.id, call_id: item.call_id, name: item.name, arguments: item.arguments };
  return { type: 'message', id: item.id, role: 'assistant', content: item.content.map((part) => ({ type: 'output_text' as const, text: part.text })) };
}
