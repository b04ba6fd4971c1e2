// Usage aggregation in SQL. A range [from, to) is read at the coarsest grain that fits: whole
// UTC days from usage_daily, whole hours of the edge days from usage_hourly (both rollups kept
// by a trigger on usage_records), and only the partial hours at the very ends from
// usage_records through its (organization_id, created_at) index. The rows read are bounded by
// (days + 46 hours) x (models x users) plus two partial hours of records, whatever the volume.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ceilTo, DAY_MS, floorTo, HOUR_MS, utcDayString } from './period.js';

export interface UsageRange {
  from: Date;
  to: Date;
}

export interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  estimatedCost: number;
  /** Of inputTokens, read from the upstreams' prompt caches. */
  cacheReadTokens: number;
  /** Of inputTokens, written to the upstreams' prompt caches. */
  cacheWriteTokens: number;
  /** USD the cache reads saved: their cost at the input price less what they cost. */
  cacheSaving: number;
}

export type UsageGroupBy = 'model' | 'user' | 'day' | 'key';

export type UsageGroup =
  | ({ model: string } & UsageTotals)
  | ({ userId: string; email: string | null } & UsageTotals)
  | ({ day: string } & UsageTotals)
  | ({ apiKeyId: string | null; name: string | null; prefix: string | null } & UsageTotals);

export interface SplitRange {
  /** Partial hours read from usage_records. */
  records: UsageRange[];
  /** Whole hours read from usage_hourly. */
  hours: UsageRange[];
  /** Whole days read from usage_daily. */
  days: UsageRange[];
}

/** Splits [from, to) into whole UTC days, then whole hours, then the partial hours left over. */
export function splitRange(range: UsageRange): SplitRange {
  const split: SplitRange = { records: [], hours: [], days: [] };
  for (const dayEdge of carve(range, DAY_MS, split.days)) {
    for (const hourEdge of carve(dayEdge, HOUR_MS, split.hours)) split.records.push(hourEdge);
  }
  return split;
}

/** Pushes the whole `unitMs` units inside `range` to `whole`; returns the non-empty remainders. */
function carve(range: UsageRange, unitMs: number, whole: UsageRange[]): UsageRange[] {
  const first = ceilTo(range.from, unitMs);
  const last = floorTo(range.to, unitMs);
  if (first.getTime() >= last.getTime()) return isEmpty(range) ? [] : [range];
  whole.push({ from: first, to: last });
  return [{ from: range.from, to: first }, { from: last, to: range.to }].filter((edge) => !isEmpty(edge));
}

function isEmpty(range: UsageRange): boolean {
  return range.from.getTime() >= range.to.getTime();
}

/** The usage of one organization over a range, as rows of (model, user_id, day, sums). */
function usageSource(organizationId: string, range: UsageRange): { sql: string; params: unknown[] } {
  const split = splitRange(range);
  const parts: string[] = [];
  const params: unknown[] = [];
  /** `column` inside any of `ranges`, bound as timestamps or as `YYYY-MM-DD` dates. */
  const within = (column: string, ranges: UsageRange[], type: 'timestamptz' | 'date' = 'timestamptz') =>
    ranges
      .map(({ from, to }) => {
        params.push(...[from, to].map((at) => (type === 'date' ? utcDayString(at) : at.toISOString())));
        return `("${column}" >= cast(? as ${type}) and "${column}" < cast(? as ${type}))`;
      })
      .join(' or ');
  if (split.records.length > 0) {
    params.push(organizationId);
    parts.push(`select "model", "user_id", ("created_at" at time zone 'UTC')::date as "day", 1::bigint as "requests",
        "input_tokens"::bigint as "input_tokens", "output_tokens"::bigint as "output_tokens", "cost",
        "cache_read_tokens"::bigint as "cache_read_tokens", "cache_write_tokens"::bigint as "cache_write_tokens", "cache_saving"
      from "usage_records" where "organization_id" = ? and (${within('created_at', split.records)})`);
  }
  if (split.hours.length > 0) {
    params.push(organizationId);
    parts.push(`select "model", "user_id", ("hour" at time zone 'UTC')::date as "day", "requests", "input_tokens", "output_tokens", "cost",
        ${CACHE_COLUMNS} from "usage_hourly" where "organization_id" = ? and (${within('hour', split.hours)})`);
  }
  if (split.days.length > 0) {
    params.push(organizationId);
    parts.push(`select "model", "user_id", "day", "requests", "input_tokens", "output_tokens", "cost", ${CACHE_COLUMNS}
      from "usage_daily" where "organization_id" = ? and (${within('day', split.days, 'date')})`);
  }
  if (parts.length === 0) {
    // An empty range: keep the row shape, select nothing.
    parts.push(`select "model", "user_id", "day", "requests", "input_tokens", "output_tokens", "cost", ${CACHE_COLUMNS} from "usage_daily" where false`);
  }
  return { sql: parts.join('\n    union all\n    '), params };
}

const CACHE_COLUMNS = '"cache_read_tokens", "cache_write_tokens", "cache_saving"';

const SUMS = `coalesce(sum("requests"), 0) as "requests", coalesce(sum("input_tokens"), 0) as "input_tokens",
  coalesce(sum("output_tokens"), 0) as "output_tokens", coalesce(sum("cost"), 0) as "cost",
  coalesce(sum("cache_read_tokens"), 0) as "cache_read_tokens", coalesce(sum("cache_write_tokens"), 0) as "cache_write_tokens",
  coalesce(sum("cache_saving"), 0) as "cache_saving"`;

interface SumRow {
  requests: string | number;
  input_tokens: string | number;
  output_tokens: string | number;
  cost: string | number;
  cache_read_tokens: string | number;
  cache_write_tokens: string | number;
  cache_saving: string | number;
}

export async function sumUsage(em: EntityManager, organizationId: string, range: UsageRange): Promise<UsageTotals> {
  const source = usageSource(organizationId, range);
  const [row] = await em.execute<SumRow[]>(`with "usage" as (${source.sql}) select ${SUMS} from "usage"`, source.params);
  return toTotals(row);
}

export async function groupUsage(
  em: EntityManager,
  organizationId: string,
  range: UsageRange,
  groupBy: UsageGroupBy,
): Promise<UsageGroup[]> {
  if (groupBy === 'key') return groupUsageByKey(em, organizationId, range);
  const source = usageSource(organizationId, range);
  switch (groupBy) {
    case 'model': {
      const rows = await em.execute<Array<SumRow & { model: string }>>(
        `with "usage" as (${source.sql}) select "model", ${SUMS} from "usage" group by "model" order by "model"`,
        source.params,
      );
      return rows.map((row) => ({ model: row.model, ...toTotals(row) }));
    }
    case 'day': {
      const rows = await em.execute<Array<SumRow & { day: string }>>(
        `with "usage" as (${source.sql})
         select to_char("day", 'YYYY-MM-DD') as "day", ${SUMS} from "usage" group by "usage"."day" order by "usage"."day"`,
        source.params,
      );
      return rows.map((row) => ({ day: row.day, ...toTotals(row) }));
    }
    case 'user': {
      // Users are joined after grouping, scoped to the organization; a removed user keeps its
      // usage with a null email.
      const rows = await em.execute<Array<SumRow & { user_id: string; email: string | null }>>(
        `with "usage" as (${source.sql}),
         "groups" as (select "user_id", ${SUMS} from "usage" group by "user_id")
         select "groups".*, "users"."email" from "groups"
         left join "users" on "users"."id" = "groups"."user_id" and "users"."organization_id" = ?
         order by "users"."email" nulls last, "groups"."user_id"`,
        [...source.params, organizationId],
      );
      return rows.map((row) => ({ userId: row.user_id, email: row.email, ...toTotals(row) }));
    }
  }
}

/**
 * Usage by API key. The rollups do not keep the key, so this reads usage_records over the range
 * through its (organization_id, created_at) index: its cost grows with the range's requests, unlike
 * the other groupings'. Calls made without a key (a browser session, a run) group under a null key;
 * a key's name and prefix are joined after grouping, within the organization.
 */
async function groupUsageByKey(em: EntityManager, organizationId: string, range: UsageRange): Promise<UsageGroup[]> {
  const rows = await em.execute<Array<SumRow & { api_key_id: string | null; name: string | null; prefix: string | null }>>(
    `with "groups" as (
       select "api_key_id", count(*) as "requests", coalesce(sum("input_tokens"), 0) as "input_tokens",
         coalesce(sum("output_tokens"), 0) as "output_tokens", coalesce(sum("cost"), 0) as "cost",
         coalesce(sum("cache_read_tokens"), 0) as "cache_read_tokens", coalesce(sum("cache_write_tokens"), 0) as "cache_write_tokens",
         coalesce(sum("cache_saving"), 0) as "cache_saving"
       from "usage_records" where "organization_id" = ? and "created_at" >= ? and "created_at" < ? group by "api_key_id")
     select "groups".*, "api_keys"."name", "api_keys"."prefix" from "groups"
     left join "api_keys" on "api_keys"."id" = "groups"."api_key_id" and "api_keys"."organization_id" = ?
     order by "groups"."cost" desc, "api_keys"."name" nulls last, "groups"."api_key_id" nulls last`,
    [organizationId, range.from.toISOString(), range.to.toISOString(), organizationId],
  );
  return rows.map((row) => ({ apiKeyId: row.api_key_id, name: row.name, prefix: row.prefix, ...toTotals(row) }));
}

function toTotals(row: SumRow | undefined): UsageTotals {
  return {
    requests: Number(row?.requests ?? 0),
    inputTokens: Number(row?.input_tokens ?? 0),
    outputTokens: Number(row?.output_tokens ?? 0),
    estimatedCost: roundUsd(Number(row?.cost ?? 0)),
    cacheReadTokens: Number(row?.cache_read_tokens ?? 0),
    cacheWriteTokens: Number(row?.cache_write_tokens ?? 0),
    cacheSaving: roundUsd(Number(row?.cache_saving ?? 0)),
  };
}

/** Costs are shown to the nano-dollar: floating sums otherwise print as 0.30000000000000004. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

