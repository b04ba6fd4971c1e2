// Overview: this month's spend (GET /v1/billing/usage): by day as a chart, by model, by key
// (groupBy=key), the budget and what is left, and requests; this month's errors are counted from
// the gateway's request records (GET /v1/gateway/requests?status=error, its total) and link to them.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api, ApiError, type Ok } from '../api';
import type { Me } from '../app';

type Summary = Extract<Ok<'/v1/billing/usage', 'get'>, { totals: unknown }>;
type Groups = Extract<Ok<'/v1/billing/usage', 'get'>, { groups: unknown }>['groups'];
type KeyGroup = Extract<Groups[number], { apiKeyId: string | null }>;

const usd = (value: number) => `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 2)}`;

export function Overview({ me }: { me: Me }) {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [days, setDays] = useState<Array<{ day: string; estimatedCost: number; requests: number }>>([]);
  const [models, setModels] = useState<Array<{ model: string; estimatedCost: number; requests: number }>>([]);
  const [keys, setKeys] = useState<KeyGroup[]>([]);
  const [errors, setErrors] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (me.role === 'member') return;
    const group = (groupBy: 'day' | 'model' | 'key') => api('get', '/v1/billing/usage', { query: { groupBy } }).then((r) => (r as { groups: Groups }).groups);
    Promise.all([api('get', '/v1/billing/usage'), group('day'), group('model'), group('key')])
      .then(([total, byDay, byModel, byKey]) => {
        setSummary(total as Summary);
        setDays(byDay.filter((g): g is Extract<Groups[number], { day: string }> => 'day' in g));
        setModels(byModel.filter((g): g is Extract<Groups[number], { model: string }> => 'model' in g));
        setKeys(byKey.filter((g): g is KeyGroup => 'apiKeyId' in g));
        return api('get', '/v1/gateway/requests', { query: { status: 'error', from: (total as Summary).period.from, limit: 1 } });
      })
      .then((failed) => setErrors(`${failed.total.toLocaleString('en-US')}${failed.totalExact ? '' : '+'}`))
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Could not load usage'));
  }, [me.role]);

  if (me.role === 'member') {
    return (
      <section>
        <h1>Overview</h1>
        <p>Spend and budgets are shown to admins and the owner.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading">Overview</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {summary && (
        <dl class="figures">
          <div>
            <dt>Spent this month</dt>
            <dd data-testid="spent">{usd(summary.totals.estimatedCost)}</dd>
          </div>
          <div>
            <dt>Budget</dt>
            <dd>{summary.budgetCap === null ? 'No cap' : usd(summary.budgetCap)}</dd>
          </div>
          <div>
            <dt>Left</dt>
            <dd>{summary.budgetRemaining === null ? '—' : usd(summary.budgetRemaining)}</dd>
          </div>
          <div>
            <dt>Requests</dt>
            <dd data-testid="requests">{summary.totals.requests}</dd>
          </div>
          <div>
            <dt>Errors</dt>
            <dd data-testid="errors">
              {errors === null ? (
                '—'
              ) : (
                <a href={`/console/requests?status=error&from=${summary.period.from.slice(0, 10)}`} aria-label={`${errors} errors this month: show them`}>
                  {errors}
                </a>
              )}
            </dd>
          </div>
        </dl>
      )}
      <h2>Spend by day</h2>
      <SpendChart days={days} from={summary?.period.from} />
      <div class="columns">
        <div>
          <h2>By model</h2>
          <table>
            <caption class="visually-hidden">Spend by model this month</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Requests</th>
                <th scope="col">Spend</th>
              </tr>
            </thead>
            <tbody>
              {models.map((row) => (
                <tr key={row.model}>
                  <td>{row.model}</td>
                  <td>{row.requests}</td>
                  <td>{usd(row.estimatedCost)}</td>
                </tr>
              ))}
              {models.length === 0 && (
                <tr>
                  <td colSpan={3}>No usage this month.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <div>
          <h2>By key</h2>
          <table>
            <caption class="visually-hidden">Spend by API key this month</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Requests</th>
                <th scope="col">Spend</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.apiKeyId ?? 'none'}>
                  <td>
                    {key.apiKeyId === null ? (
                      'No key (sessions, automation runs)'
                    ) : (
                      <>
                        {key.name ?? 'removed key'} <code>{key.prefix}…</code>
                      </>
                    )}
                  </td>
                  <td>{key.requests}</td>
                  <td>{usd(key.estimatedCost)}</td>
                </tr>
              ))}
              {keys.length === 0 && (
                <tr>
                  <td colSpan={3}>No usage this month.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/** Each day of the month so far, spend in USD, drawn with uPlot (a canvas; the table below is its text). */
function SpendChart({ days, from }: { days: Array<{ day: string; estimatedCost: number }>; from: string | undefined }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || !from) return;
    const start = new Date(from);
    const today = new Date();
    const xs: number[] = [];
    const ys: number[] = [];
    const byDay = new Map(days.map((d) => [d.day, d.estimatedCost]));
    for (let at = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()); at <= today.getTime(); at += 86_400_000) {
      xs.push(at / 1000);
      ys.push(byDay.get(new Date(at).toISOString().slice(0, 10)) ?? 0);
    }
    const chart = new uPlot(
      {
        width: Math.max(280, Math.min(element.clientWidth || 640, 960)),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true } },
        axes: [{}, { values: (_u, values) => values.map((v) => `$${v}`) }],
        series: [{}, { label: 'Spend (USD)', stroke: '#2563eb', fill: 'rgba(37,99,235,0.15)', width: 2, paths: uPlot.paths.bars!({ size: [0.7, 40] }) }],
        legend: { show: false },
      },
      [xs, ys],
      element,
    );
    return () => chart.destroy();
  }, [days, from]);
  const total = days.reduce((sum, d) => sum + d.estimatedCost, 0);
  return (
    <figure class="chart">
      <div ref={holder} role="img" aria-label={`Spend by day this month, ${usd(total)} in all over ${days.length} day(s) with usage`} data-testid="spend-chart" data-days={days.length} />
    </figure>
  );
}
