// The approvals inbox: pending tool calls (polled every few seconds) with their tool, their
// arguments as DLP left them, the run or assistant, age and expiry; Approve, or Deny with a
// reason; "remember" is offered where the request came from an automation or an assistant (the
// API lets only its owner ask, and answers 403 otherwise). Below, the decided history.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Ok } from '../api';
import type { Me } from '../app';

type Approval = Ok<'/v1/approvals', 'get'>['approvals'][number];

const POLL_MS = 3000;

function ago(iso: string, now: number): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  const magnitude = Math.abs(seconds);
  const text = magnitude < 60 ? `${magnitude}s` : magnitude < 3600 ? `${Math.round(magnitude / 60)} min` : magnitude < 86_400 ? `${Math.round(magnitude / 3600)} h` : `${Math.round(magnitude / 86_400)} d`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

function origin(approval: Approval): string {
  if (approval.runId) return `automation run ${approval.runId}`;
  if (approval.executionId) return `assistant ${approval.assistantId ?? ''} execution ${approval.executionId}`;
  if (approval.apiKeyId) return `MCP call with key ${approval.apiKeyId}`;
  return 'unknown';
}

function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function Approvals(_props: { me: Me }) {
  const [pending, setPending] = useState<Approval[]>([]);
  const [decided, setDecided] = useState<Approval[]>([]);
  const [now, setNow] = useState(Date.now());
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  const load = useCallback(async () => {
    try {
      const [open, recent] = await Promise.all([
        api('get', '/v1/approvals', { query: { status: 'pending', limit: 100 } }),
        api('get', '/v1/approvals', { query: { limit: 50 } }),
      ]);
      setPending(open.approvals);
      setDecided(recent.approvals.filter((a) => a.status !== 'pending'));
      setNow(Date.now());
      setLoaded(true);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not load approvals');
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <section aria-labelledby="approvals-heading">
      <h1 id="approvals-heading">Approvals</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <h2>Waiting for a decision</h2>
      <div aria-live="polite" aria-busy={!loaded}>
        {loaded && pending.length === 0 && <p>Nothing is waiting.</p>}
        <ul class="cards">
          {pending.map((approval) => (
            <PendingCard key={approval.id} approval={approval} now={now} onDecided={load} />
          ))}
        </ul>
      </div>
      <h2>Decided</h2>
      <div class="table-scroll" role="region" aria-label="Decided requests table" tabIndex={0}>
        <table>
          <caption class="visually-hidden">Decided approval requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Decision</th>
              <th scope="col">How</th>
              <th scope="col">When</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {decided.map((approval) => (
              <tr key={approval.id}>
                <td>
                  <code>{approval.tool}</code>
                </td>
                <td class={`status status-${approval.status}`}>{approval.status}</td>
                <td>{approval.decidedVia ?? '—'}</td>
                <td>{approval.decidedAt ? ago(approval.decidedAt, now) : '—'}</td>
                <td>{approval.reason ?? ''}</td>
              </tr>
            ))}
            {loaded && decided.length === 0 && (
              <tr>
                <td colSpan={5}>No decisions yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PendingCard({ approval, now, onDecided }: { approval: Approval; now: number; onDecided: () => Promise<void> }) {
  const [reason, setReason] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canRemember = Boolean(approval.automationId || approval.assistantId);
  const headingId = `approval-${approval.id}`;

  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      if (decision === 'approve') {
        await api('post', '/v1/approvals/{id}/approve', { params: { id: approval.id }, body: remember ? { remember: true } : {} });
      } else {
        await api('post', '/v1/approvals/{id}/deny', { params: { id: approval.id }, body: reason.trim() ? { reason: reason.trim() } : {} });
      }
      await onDecided();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The decision was not recorded');
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <code>{approval.tool}</code>
      </h3>
      <p class="meta">
        From {origin(approval)} · asked {ago(approval.requestedAt, now)} · expires {ago(approval.expiresAt, now)}
      </p>
      <pre class="arguments" aria-label="Arguments (after DLP)">{prettyArguments(approval.arguments)}</pre>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="decide">
        {canRemember && (
          <label class="inline">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember((e.currentTarget as HTMLInputElement).checked)} /> Remember: never ask
            again for this tool here
          </label>
        )}
        <button type="button" class="primary" disabled={busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <label class="inline">
          Reason for denying
          <input type="text" value={reason} maxLength={1000} onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <button type="button" class="danger" disabled={busy} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </li>
  );
}
