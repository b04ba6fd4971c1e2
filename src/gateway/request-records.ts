// Reading the gateway's request records (gateway_requests, written by recorder.ts): one page,
// newest first, of an organization's records, filtered by model, API key, HTTP status and time.
// Admins and the owner read the organization's records; a member reads only the records of calls
// made as them (their keys, their session, the runs they own), as they see only their own keys.
// The query walks the (organization_id, created_at) index backwards; the prompt text and the DLP
// findings are not listed. The total is counted up to TOTAL_CAP matching records (a busy
// organization keeps millions): past it the answer says `totalExact: false`, and a time range
// (`from`, `to`) narrows the list.
import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../errors.js';
import { hasRole, type Caller } from '../identity/caller.js';
import type { GatewayOutcome } from './entities.js';
import { TOTAL_CAP, type RequestRecordsQuery } from './request-records.schemas.js';

export interface RequestRecordView {
  id: string;
  createdAt: string;
  /** What the client sent as `model` (a model id or a tier). */
  modelRequested: string;
  /** The model that answered; null when none did. */
  model: string | null;
  provider: string | null;
  userId: string;
  apiKeyId: string | null;
  source: string;
  runId: string | null;
  requestId: string | null;
  stream: boolean;
  status: number;
  outcome: GatewayOutcome;
  errorCode: string | null;
  attempts: number;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
  estimated: boolean;
  /** Answered from the gateway's response cache. */
  cached: boolean;
}

export async function listRequestRecords(
  em: EntityManager,
  caller: Caller,
  query: RequestRecordsQuery,
): Promise<{ requests: RequestRecordView[]; total: number; totalExact: boolean }> {
  const where = whereOf(caller, query);
  const [rows, counted] = await Promise.all([
    em.execute<RecordRow[]>(
      `select ${COLUMNS} from "gateway_requests" where ${where.sql} order by "created_at" desc, "id" desc limit ? offset ?`,
      [...where.params, query.limit, query.offset],
    ),
    em.execute<Array<{ total: string | number }>>(
      `select count(*) as "total" from (select 1 from "gateway_requests" where ${where.sql} limit ?) as "matching"`,
      [...where.params, TOTAL_CAP + 1],
    ),
  ]);
  const total = Number(counted[0]?.total ?? 0);
  return { requests: rows.map(toView), total: Math.min(total, TOTAL_CAP), totalExact: total <= TOTAL_CAP };
}

/** The conditions of a query: always the caller's organization, and for a member their own calls. */
function whereOf(caller: Caller, query: RequestRecordsQuery): { sql: string; params: unknown[] } {
  const conditions = ['"organization_id" = ?'];
  const params: unknown[] = [caller.organizationId];
  const add = (sql: string, ...values: unknown[]) => {
    conditions.push(sql);
    params.push(...values);
  };
  if (!hasRole(caller, 'admin')) add('"user_id" = ?', caller.userId);
  if (query.model !== undefined) add('("model" = ? or "model_requested" = ?)', query.model, query.model);
  if (query.apiKeyId !== undefined) add('"api_key_id" = ?', query.apiKeyId);
  if (query.status !== undefined) {
    const [low, high] = statusRange(query.status);
    add('"status" >= ? and "status" < ?', low, high);
  }
  const range = timeRange(query);
  if (range.from) add('"created_at" >= ?', range.from.toISOString());
  if (range.to) add('"created_at" < ?', range.to.toISOString());
  return { sql: conditions.join(' and '), params };
}

/** [low, high) of the HTTP statuses a status filter names (its format is checked by the schema). */
export function statusRange(filter: string): [number, number] {
  if (filter === 'success') return [0, 400];
  if (filter === 'error') return [400, 1000];
  if (filter.endsWith('xx')) {
    const hundreds = Number(filter[0]) * 100;
    return [hundreds, hundreds + 100];
  }
  return [Number(filter), Number(filter) + 1];
}

/**
 * [from, to): a date-only `to` includes that whole UTC day; `to` before `from` is 400 naming `to`.
 * Instants outside years 1-9999 are 400 (PostgreSQL's timestamps have no year 0, and
 * toISOString writes years past 9999 in a form it does not read); a `to` past the end of 9999
 * (`to=9999-12-31`) is no upper bound.
 */
export function timeRange(query: Pick<RequestRecordsQuery, 'from' | 'to'>): { from?: Date; to?: Date } {
  const from = query.from === undefined ? undefined : instant(query.from, 'from');
  let to = query.to === undefined ? undefined : instant(query.to, 'to');
  if (to && query.to && isDateOnly(query.to)) to = new Date(to.getTime() + DAY_MS);
  if (from && to && to.getTime() <= from.getTime()) throw badRequest('to must be after from', 'to');
  if (to && to.getTime() > LATEST) to = undefined;
  return { ...(from && { from }), ...(to && { to }) };
}

const DAY_MS = 86_400_000;
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

function isDateOnly(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function instant(value: string, param: 'from' | 'to'): Date {
  const at = new Date(isDateOnly(value) ? `${value}T00:00:00Z` : value);
  const time = at.getTime();
  if (Number.isNaN(time) || time < EARLIEST || time > LATEST) throw badRequest(`${param} must be a date between 0001-01-01 and 9999-12-31`, param);
  return at;
}

const COLUMNS = [
  'id', 'created_at', 'model_requested', 'model', 'provider', 'user_id', 'api_key_id', 'source', 'run_id', 'request_id',
  'stream', 'status', 'outcome', 'error_code', 'attempts', 'latency_ms', 'input_tokens', 'output_tokens',
  'cache_read_tokens', 'cache_write_tokens', 'cost', 'estimated', 'cached',
]
  .map((column) => `"${column}"`)
  .join(', ');

interface RecordRow {
  id: string;
  created_at: Date | string;
  model_requested: string;
  model: string | null;
  provider: string | null;
  user_id: string;
  api_key_id: string | null;
  source: string;
  run_id: string | null;
  request_id: string | null;
  stream: boolean;
  status: number;
  outcome: GatewayOutcome;
  error_code: string | null;
  attempts: number;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost: number | string;
  estimated: boolean;
  cached: boolean;
}

function toView(row: RecordRow): RequestRecordView {
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    modelRequested: row.model_requested,
    model: row.model,
    provider: row.provider,
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    source: row.source,
    runId: row.run_id,
    requestId: row.request_id,
    stream: row.stream,
    status: row.status,
    outcome: row.outcome,
    errorCode: row.error_code,
    attempts: row.attempts,
    latencyMs: row.latency_ms,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    cost: Number(row.cost),
    estimated: row.estimated,
    cached: row.cached,
  };
}
