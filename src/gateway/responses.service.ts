// Stored responses of the Responses API (`store`, on by default as OpenAI's): what lets a later
// call continue with `previous_response_id` or point at an earlier item with `item_reference`,
// and what GET/DELETE /v1/responses/{id} read. A stored response belongs to the user who stored it:
// only they continue it or reference its items; they, the organization's admins and its owner read
// and delete it (deletes audited); anyone else gets what a nonexistent id gets. Encrypted at rest
// (SecretBox), kept RESPONSES_RETENTION_DAYS, counted against QUOTA_STORED_RESPONSE_BYTES.
// A row keeps only its own request's input items and its answer: earlier turns by a link to the
// response it continued, referenced items as references (responses.conversation.ts reads them),
// so no response stores a copy of another's content, a cached answer included, and a deleted
// response's content resolves nowhere.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { Orm } from '../db/orm.js';
import { GroupCommit } from '../db/group-commit.js';
import { runPrepared } from '../db/prepared.js';
import { badRequest, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { OrganizationByteQuota } from '../quotas/byte-quota.js';
import { arrayLiteral, ConversationReader, plainIds, readsAnyones, type StoredPayload } from './responses.conversation.js';
import { StoredResponse, StoredResponseItem } from './responses.entities.js';
import { inputItemPrefix, inputItems, listedInputItem, type ItemPrefix, type ResolvedItem, type ResponseIds, type ResponseObject } from './wire/responses.js';
import type { InputItemsQuery, ResponsesRequest } from './wire/responses.schemas.js';

export interface ResponsesStoreDeps {
  orm: Orm;
  secrets: SecretBox;
  clock: Clock;
  retentionDays: number;
  /** The stored bytes an organization may have, and the body limit the resolution cap derives from. */
  limits: Pick<Config, 'QUOTA_STORED_RESPONSE_BYTES' | 'BODY_LIMIT_BYTES'>;
}

/** Who calls: the storing user continues, they and admins read and delete. */
export type ResponsesCaller = Pick<Caller, 'organizationId' | 'userId' | 'role' | 'apiKeyId'>;

/**
 * What a request may resolve, as a multiple of BODY_LIMIT_BYTES: the stored bytes it reads (its
 * previous_response_id chain, the responses its references point into) and the bytes its
 * references copy into the conversation, each. A conversation kept by the gateway may so grow to
 * four request bodies; beyond, the client sends it (store: false) or starts afresh.
 */
export const RESOLVE_LIMIT_BODIES = 4;

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

/** One request's turn: the conversation to answer, the new ids, and what save() keeps. */
export interface ResponseTurn {
  /** Earlier turns and references resolved, then the request's own items. */
  conversation: ResolvedItem[];
  ids: ResponseIdSequence;
  /** Undefined with `store: false`. */
  keep: { input: string; previousResponseId: string | null } | undefined;
}

/** A stored response as the insert statement takes it: ciphertext, owners, link and times (epoch ms). */
interface ResponseRow {
  id: string;
  organizationId: string;
  userId: string;
  previousResponseId: string | null;
  payload: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * The batch travels as seven array parameters, one per column (unnest pairs them up row by row),
 * and adds each organization's bytes to its running total in the same statement (the quota's
 * count: octet_length of the ciphertext), returning the new totals. Organizations are updated in
 * id order, so two processes' batches never wait on each other's rows in a cycle.
 * The statement commits asynchronously: `set_config(..., true)` is SET LOCAL synchronous_commit =
 * off for its own implicit transaction, in the same round trip. The rows are visible to every
 * connection (every API process) at once; only the WAL flush is not waited for, so a crash of
 * PostgreSQL itself may lose the responses of its last moments (up to 3 x wal_writer_delay, 600 ms
 * by default), never half of one nor its bytes without it. The answer's audit and usage rows are
 * written later still.
 */
const INSERT_RESPONSES_SQL = `
with "inserted" as (
  insert into "gateway_responses" ("id", "organization_id", "user_id", "previous_response_id", "payload_ciphertext", "created_at", "expires_at")
  select r."id", r."organization_id", r."user_id", r."previous_id", r."payload", to_timestamp(r."created_ms" / 1000), to_timestamp(r."expires_ms" / 1000)
  from unnest(?::text[], ?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::float8[], ?::float8[]) as r("id", "organization_id", "user_id", "previous_id", "payload", "created_ms", "expires_ms")
  where set_config('synchronous_commit', 'off', true) = 'off'
  returning "organization_id", octet_length("payload_ciphertext") as "bytes"
)
insert into "gateway_response_bytes" as t ("organization_id", "bytes")
select "organization_id", sum("bytes") from "inserted" group by "organization_id" order by "organization_id"
on conflict ("organization_id") do update set "bytes" = t."bytes" + excluded."bytes"
returning "organization_id", "bytes"`;

/**
 * DELETE: empties the row (its content goes, its link to the response it continued stays so the
 * rest of the conversation still resolves from later turns) and subtracts its bytes, one statement.
 */
const EMPTY_RESPONSE_SQL = `
with "old" as (
  select "id", "user_id", octet_length("payload_ciphertext") as "bytes" from "gateway_responses"
  where "id" = ? and "organization_id" = ? and "expires_at" > to_timestamp(?::float8 / 1000) and "deleted_at" is null and ("user_id" = ? or ?::boolean)
  for update
), "emptied" as (
  update "gateway_responses" r set "payload_ciphertext" = '', "deleted_at" = to_timestamp(?::float8 / 1000)
  from "old" where r."id" = "old"."id" returning "old"."user_id", "old"."bytes"
), "total" as (
  update "gateway_response_bytes" t set "bytes" = t."bytes" - e."bytes" from "emptied" e where t."organization_id" = ? returning t."bytes"
)
select e."user_id", (select "bytes" from "total") as "total" from "emptied" e`;

/**
 * Deletes expired rows (of every organization, or of one) and subtracts their bytes; the totals it
 * changed. The totals' rows are locked in organization order first, as the insert takes them.
 */
const purgeSql = (oneOrganization: boolean) => `
with "gone" as (
  delete from "gateway_responses" where "expires_at" <= to_timestamp(?::float8 / 1000)${oneOrganization ? ' and "organization_id" = ?' : ''}
  returning "organization_id", octet_length("payload_ciphertext") as "bytes"
), "locked" as materialized (
  select "organization_id" from "gateway_response_bytes" where "organization_id" in (select "organization_id" from "gone") order by "organization_id" for update
), "totals" as (
  update "gateway_response_bytes" t set "bytes" = t."bytes" - g."bytes"
  from (select "organization_id", sum("bytes") as "bytes" from "gone" group by "organization_id") g join "locked" l using ("organization_id")
  where t."organization_id" = g."organization_id" returning t."organization_id", t."bytes"
)
select (select count(*) from "gone")::int as "deleted", (select coalesce(json_agg(json_build_array("organization_id", "bytes")), '[]') from "totals") as "totals"`;

const TOTAL_SQL = 'select "bytes" from "gateway_response_bytes" where "organization_id" = ?';

/** How often one store deletes expired responses (on a save, off the answer's path). */
const PURGE_INTERVAL_MS = 3_600_000;

export class ResponsesStore {
  private lastPurge = 0;
  /** A statement's system calls cost more than its rows: under load, one statement every 2 ms at most. */
  private readonly writes = new GroupCommit<ResponseRow>((rows) => this.insert(rows), { minSpacingMs: 2 });
  private readonly quota: OrganizationByteQuota;
  private readonly reader: ConversationReader;

  constructor(private readonly deps: ResponsesStoreDeps) {
    this.quota = new OrganizationByteQuota({
      limit: deps.limits.QUOTA_STORED_RESPONSE_BYTES,
      env: 'QUOTA_STORED_RESPONSE_BYTES',
      resource: 'stored responses',
      param: 'store',
      readTotal: (organizationId) => this.storedBytes(organizationId),
      freeExpired: async (organizationId) => {
        await this.purgeExpired(organizationId);
        return this.storedBytes(organizationId);
      },
    });
    this.reader = new ConversationReader({ ...deps, limitBytes: RESOLVE_LIMIT_BODIES * deps.limits.BODY_LIMIT_BYTES });
  }

  /**
   * A request's turn: with `store`, room in the organization's quota first (403 quota_exceeded,
   * param `store`); then the conversation, every reference resolved among the caller's own
   * responses (400 naming the field otherwise, as for an id that does not exist, or past the
   * resolution cap); and the request's own items with ids, as save() will keep them.
   */
  async begin(caller: ResponsesCaller, body: ResponsesRequest): Promise<ResponseTurn> {
    const items = inputItems(body.input);
    if (items.length === 0 && !body.previous_response_id) throw badRequest('input is required', 'input');
    const ids = new ResponseIdSequence();
    let keep: ResponseTurn['keep'];
    if (body.store !== false) {
      // Every stored input item gets an id (the client may send none): input_items pages by them, item_reference names them.
      const input = JSON.stringify(items.map((item) => (item.type === 'item_reference' || item.id ? item : { ...item, id: ids.item(inputItemPrefix(item)) })));
      await this.quota.assertRoom(caller.organizationId, input.length);
      keep = { input, previousResponseId: body.previous_response_id ?? null };
    }
    const conversation = await this.reader.forRequest(caller, body.previous_response_id ?? undefined, items);
    return { conversation, ids, keep };
  }

  /**
   * Keeps a finished response (`responseJson`: the answer's own text; its id is `turn.ids.response`)
   * with its request's own input items as one row, committed before the client gets the answer:
   * its ids (the response's and its items') must resolve at once, on any API process. Saves that
   * arrive while another is being written share the next statement (group commit).
   */
  async save(caller: ResponsesCaller, turn: ResponseTurn, responseJson: string): Promise<void> {
    if (!turn.keep) return;
    const now = this.deps.clock.now().getTime();
    this.purgeNowAndThen(now);
    // A StoredPayload, written around the response's JSON (the answer's own text) rather than serialized again.
    const payload = `{"response":${responseJson},"input":${turn.keep.input}}`;
    await this.writes.add({
      id: turn.ids.response,
      organizationId: caller.organizationId,
      userId: caller.userId,
      previousResponseId: turn.keep.previousResponseId,
      payload: this.deps.secrets.encrypt(payload),
      createdAt: now,
      expiresAt: now + this.deps.retentionDays * 86_400_000,
    });
  }

  /**
   * One statement for a batch of responses and their organizations' totals, its columns as bound
   * array parameters (not quoted into the SQL text); prepared once per connection (runPrepared).
   */
  private async insert(rows: ResponseRow[]): Promise<void> {
    const totals = await runPrepared<{ organization_id: string; bytes: string | number }>(this.deps.orm, 'gateway-responses-insert-counted', INSERT_RESPONSES_SQL, [
      plainIds(rows.map((row) => row.id)),
      plainIds(rows.map((row) => row.organizationId)),
      plainIds(rows.map((row) => row.userId)),
      plainIds(rows.map((row) => row.previousResponseId)),
      arrayLiteral(rows.map((row) => row.payload)),
      arrayLiteral(rows.map((row) => row.createdAt)),
      arrayLiteral(rows.map((row) => row.expiresAt)),
    ]);
    for (const total of totals) this.quota.learn(total.organization_id, Number(total.bytes));
  }

  /** Deletes expired responses (items stored before item ids named their response go with them), of every organization or of one; returns how many. */
  async purgeExpired(organizationId?: string): Promise<number> {
    const params: unknown[] = [this.deps.clock.now().getTime()];
    if (organizationId !== undefined) params.push(organizationId);
    const [result] = await this.deps.orm.em.fork().getConnection().execute<{ deleted: number; totals: [string, string | number][] | string }[]>(purgeSql(organizationId !== undefined), params, 'all');
    const totals = typeof result!.totals === 'string' ? (JSON.parse(result!.totals) as [string, number][]) : result!.totals;
    for (const [organization, bytes] of totals) this.quota.learn(organization, Number(bytes));
    return Number(result!.deleted);
  }

  /** The organization's stored bytes now (its running total). */
  private async storedBytes(organizationId: string): Promise<number> {
    const rows = await this.deps.orm.em.fork().getConnection().execute<{ bytes: string | number }[]>(TOTAL_SQL, [organizationId], 'all');
    return Number(rows[0]?.bytes ?? 0);
  }

  /** At most once an interval per store: expired rows read as absent anyway, this only frees their space. */
  private purgeNowAndThen(now: number): void {
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    this.purgeExpired().catch(() => {
      this.lastPurge = 0;
    });
  }

  /** GET /v1/responses/{id}: the response object as answered; 404 when absent, expired, deleted or not the caller's to read. */
  async get(caller: ResponsesCaller, id: string): Promise<ResponseObject> {
    const row = await this.deps.orm.em.fork().findOne(StoredResponse, {
      id,
      organizationId: caller.organizationId,
      expiresAt: { $gt: this.deps.clock.now() },
      deletedAt: null,
      ...(readsAnyones(caller) ? {} : { userId: caller.userId }),
    });
    if (!row) throw notFound('Response');
    return (JSON.parse(this.deps.secrets.decrypt(row.payloadCiphertext)) as StoredPayload).response;
  }

  /**
   * GET /v1/responses/{id}/input_items: the conversation the response answered (with
   * previous_response_id, the earlier turns too, less what was deleted or expired since), a
   * cursor page in OpenAI's list shape.
   */
  async inputItems(caller: ResponsesCaller, id: string, query: InputItemsQuery) {
    const conversation = await this.reader.ofResponse(caller, id);
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

  /**
   * DELETE /v1/responses/{id} (the storing user, admins, the owner): empties the response, so its
   * content and item ids resolve nowhere any more, frees its bytes, and records
   * `response.deleted` with who deleted it and whose it was, in the same transaction.
   */
  async remove(caller: ResponsesCaller, id: string, requestId?: string): Promise<void> {
    const now = this.deps.clock.now();
    const total = await this.deps.orm.em.fork().transactional(async (em: EntityManager) => {
      const [emptied] = await em.getConnection().execute<{ user_id: string | null; total: string | number | null }[]>(
        EMPTY_RESPONSE_SQL,
        [id, caller.organizationId, now.getTime(), caller.userId, readsAnyones(caller), now.getTime(), caller.organizationId],
        'all',
        em.getTransactionContext(),
      );
      if (!emptied) throw notFound('Response');
      await em.nativeDelete(StoredResponseItem, { responseId: id, organizationId: caller.organizationId });
      recordAuditEvent(em, {
        organizationId: caller.organizationId,
        actor: caller,
        action: 'response.deleted',
        target: { type: 'response', id },
        metadata: { ownerId: emptied.user_id },
        requestId,
        at: now,
      });
      return emptied.total;
    });
    if (total !== null) this.quota.learn(caller.organizationId, Number(total));
  }
}
