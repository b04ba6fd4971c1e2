// Requests: the gateway's request records (GET /v1/gateway/requests), newest first, one page at a
// time, filtered by model, API key, status and dates. The filters live in the address
// (/console/requests?status=error&from=2026-11-01), so a filtered list can be linked to (the
// overview's error count does). Admins and the owner see the organization's records, a member
// the calls made as them: the API decides.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Ok } from '../api';
import { Pager } from './pager';

type RequestRecord = Ok<'/v1/gateway/requests', 'get'>['requests'][number];
type Key = Ok<'/v1/api-keys', 'get'>['apiKeys'][number];

const FILTERS = ['model', 'apiKeyId', 'status', 'from', 'to'] as const;
type Filters = Partial<{ [name in (typeof FILTERS)[number]]: string }>;
const PAGE = 25;

const STATUSES: Array<[string, string]> = [
  ['', 'Any status'],
  ['success', 'Success'],
  ['error', 'Errors'],
  ['4xx', '4xx (refused)'],
  ['5xx', '5xx (failed)'],
];

export const usd = (value: number) => `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 2)}`;

function filtersFromAddress(): Filters {
  const search = new URLSearchParams(location.search);
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

export function Requests() {
  const [filters, setFilters] = useState<Filters>(filtersFromAddress);
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ requests: RequestRecord[]; total: number; totalExact: boolean } | null>(null);
  const [keys, setKeys] = useState<Key[]>([]);
  const [error, setError] = useState<string | null>(null);
  /** Bumped when the filters change other than by the form (Clear): the inputs start again from them. */
  const [formVersion, setFormVersion] = useState(0);

  useEffect(() => {
    api('get', '/v1/api-keys').then((res) => setKeys(res.apiKeys), () => setKeys([]));
  }, []);
  useEffect(() => {
    let current = true;
    setError(null);
    api('get', '/v1/gateway/requests', { query: { ...filters, limit: PAGE, offset } }).then(
      (res) => current && setPage(res),
      (caught: unknown) => {
        if (!current) return;
        setPage(null);
        setError(caught instanceof ApiError ? `${caught.message}${caught.param ? ` (${caught.param})` : ''}` : 'Could not load the requests');
      },
    );
    return () => {
      current = false;
    };
  }, [filters, offset]);

  const apply = (next: Filters) => {
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value) as Array<[string, string]>).toString();
    history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
    setOffset(0);
    setFilters(next);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const next: Filters = {};
    for (const name of FILTERS) {
      const value = String(data.get(name) ?? '').trim();
      if (value) next[name] = value;
    }
    apply(next);
  };
  const keyName = (id: string | null, source: string) => {
    if (id === null) return source === 'gateway' ? 'no key (a session)' : `no key (${source} run)`;
    const key = keys.find((k) => k.id === id);
    return key ? `${key.name} (${key.prefix}…)` : `${id.slice(0, 8)}…`;
  };

  return (
    <section aria-labelledby="requests-heading">
      <h1 id="requests-heading">Requests</h1>
      <p class="hint">
        Every model call through the gateway, answered or not. See also the <a href="/console/audit">audit log</a>.
      </p>
      <form class="card filters" aria-label="Filter requests" onSubmit={submit} key={formVersion}>
        <div class="fields">
          <label>
            Model
            <input name="model" defaultValue={filters.model ?? ''} maxLength={200} />
          </label>
          <label>
            API key
            <select name="apiKeyId">
              <option value="">Any key</option>
              {keys.map((key) => (
                <option key={key.id} value={key.id} selected={key.id === filters.apiKeyId}>
                  {key.name} ({key.prefix}…)
                </option>
              ))}
            </select>
          </label>
          <label>
            Status
            {/* `selected` on the options: a select has no default value of its own to set */}
            <select name="status">
              {STATUSES.map(([value, label]) => (
                <option key={value} value={value} selected={value === (filters.status ?? '')}>
                  {label}
                </option>
              ))}
              {filters.status && !STATUSES.some(([value]) => value === filters.status) && (
                <option value={filters.status} selected>
                  {filters.status}
                </option>
              )}
            </select>
          </label>
          <label>
            From (UTC date)
            <input name="from" type="date" defaultValue={filters.from?.slice(0, 10) ?? ''} />
          </label>
          <label>
            To (UTC date, included)
            <input name="to" type="date" defaultValue={filters.to?.slice(0, 10) ?? ''} />
          </label>
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              apply({});
              setFormVersion((n) => n + 1);
            }}
          >
            Clear filters
          </button>
        </div>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {page && (
        <>
          {/* focusable: a table wider than a phone scrolls inside, by keyboard too */}
          <div class="table-scroll" role="region" aria-label="Requests table" tabIndex={0}>
            <table data-testid="requests-table">
              <caption class="visually-hidden">Gateway requests, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Model</th>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col">Tokens in / out</th>
                  <th scope="col">Cache read / write</th>
                  <th scope="col">Cost</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Cache hit</th>
                </tr>
              </thead>
              <tbody>
                {page.requests.map((record) => (
                  <tr key={record.id}>
                    <td>
                      <time dateTime={record.createdAt}>{new Date(record.createdAt).toLocaleString()}</time>
                    </td>
                    <td>
                      {record.model ?? record.modelRequested}
                      {record.model !== null && record.model !== record.modelRequested && <span class="meta"> (asked {record.modelRequested})</span>}
                    </td>
                    <td>{keyName(record.apiKeyId, record.source)}</td>
                    <td class={record.status >= 400 ? 'status-error' : undefined}>
                      {record.status} {record.errorCode ?? record.outcome}
                    </td>
                    <td>
                      {record.inputTokens} / {record.outputTokens}
                    </td>
                    <td>
                      {record.cacheReadTokens} / {record.cacheWriteTokens}
                    </td>
                    <td>{usd(record.cost)}</td>
                    <td>{record.latencyMs} ms</td>
                    <td>{record.cached ? 'yes' : 'no'}</td>
                  </tr>
                ))}
                {page.requests.length === 0 && (
                  <tr>
                    <td colSpan={9}>No requests match.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager label="Requests" offset={offset} limit={PAGE} shown={page.requests.length} total={page.total} exact={page.totalExact} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}
