// Automations: each with its status, schedule and next fire, its last runs (status, output,
// cost), "Run now", and Pause or Activate. Runs refresh every few seconds while one is running.
// For admins and the owner each run links to its workflow in the Temporal Web UI
// (GET /v1/console/settings says where it is; members get 403 and no links).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Ok } from '../api';

type Automation = Ok<'/v1/automations', 'get'>['automations'][number];
type Run = Ok<'/v1/automations/{id}/runs', 'get'>['runs'][number];
type Settings = Ok<'/v1/console/settings', 'get'>;

/** The run's workflow (`run/<runId>`) in the Temporal Web UI. */
const workflowUrl = (settings: Settings, runId: string) =>
  `${settings.temporalUiOrigin}/namespaces/${encodeURIComponent(settings.temporalNamespace)}/workflows/${encodeURIComponent(`run/${runId}`)}`;

const POLL_MS = 3000;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function Automations() {
  const [automations, setAutomations] = useState<Automation[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  useEffect(() => {
    api('get', '/v1/console/settings').then(setSettings, () => setSettings(null));
  }, []);
  const load = useCallback(() => {
    api('get', '/v1/automations', { query: { limit: 100 } }).then(
      (res) => setAutomations(res.automations),
      (caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Could not load automations'),
    );
  }, []);
  useEffect(load, [load]);
  return (
    <section aria-labelledby="automations-heading">
      <h1 id="automations-heading">Automations</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {automations.length === 0 && <p>No automations yet.</p>}
      <ul class="cards">
        {automations.map((automation) => (
          <AutomationCard key={automation.id} automation={automation} settings={settings} onChanged={load} />
        ))}
      </ul>
    </section>
  );
}

function AutomationCard({ automation, settings, onChanged }: { automation: Automation; settings: Settings | null; onChanged: () => void }) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<string | null>(null);
  /** Bumped by an action: the runs are polled again until none is running. */
  const [poke, setPoke] = useState(0);
  const headingId = `automation-${automation.id}`;
  const loadRuns = useCallback(async () => {
    const res = await api('get', '/v1/automations/{id}/runs', { params: { id: automation.id }, query: { limit: 5 } });
    setRuns(res.runs);
    return res.runs;
  }, [automation.id]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      const latest = await loadRuns().catch(() => []);
      if (!stopped && latest.some((run) => run.status === 'running')) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [loadRuns, poke]);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      onChanged();
      setPoke((n) => n + 1);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The request failed');
    }
  };
  const params = { params: { id: automation.id } };

  return (
    <li class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{automation.name}</h2>
      <p class="meta">
        {automation.status} · <code>{automation.schedule}</code> ({automation.timezone}) · next fire {when(automation.nextRunAt)} · model {automation.model}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="decide">
        <button type="button" class="primary" onClick={() => act(() => api('post', '/v1/automations/{id}/run', params))}>
          Run now
        </button>
        {automation.status === 'active' ? (
          <button type="button" onClick={() => act(() => api('post', '/v1/automations/{id}/pause', params))}>
            Pause
          </button>
        ) : (
          <button type="button" onClick={() => act(() => api('post', '/v1/automations/{id}/activate', params))}>
            Activate
          </button>
        )}
      </div>
      <h3>Last runs</h3>
      <div class="table-scroll" role="region" aria-label={`Last runs of ${automation.name} table`} tabIndex={0}>
        <table>
          <caption class="visually-hidden">Last runs of {automation.name}</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Cost</th>
              <th scope="col">Output</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-run-id={run.id}>
                <td>
                  {settings ? (
                    <a href={workflowUrl(settings, run.id)} target="_blank" rel="noopener noreferrer">
                      {when(run.startedAt)}
                      <span class="visually-hidden"> (workflow in the Temporal Web UI)</span>
                    </a>
                  ) : (
                    when(run.startedAt)
                  )}
                </td>
                <td>{run.trigger}</td>
                <td class={`status status-${run.status}`}>
                  {run.status}
                  {run.pendingApprovals.length > 0 && (
                    <>
                      {' '}
                      (<a href="/console/approvals">waiting for approval</a>)
                    </>
                  )}
                </td>
                <td>{run.estimatedCost === null ? '—' : `$${run.estimatedCost.toFixed(6)}`}</td>
                <td class="output">{run.error ?? run.output ?? ''}</td>
              </tr>
            ))}
            {runs.length === 0 && (
              <tr>
                <td colSpan={5}>No runs yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </li>
  );
}
