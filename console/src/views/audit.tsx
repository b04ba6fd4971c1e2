// Audit log: the organization's security events (GET /v1/audit-logs), newest first, one page at a
// time. Admins and the owner; the API answers 403 to a member, and this view says so.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Ok } from '../api';
import type { Me } from '../app';
import { Pager } from './pager';

type AuditEvent = Ok<'/v1/audit-logs', 'get'>['auditLogs'][number];
const PAGE = 25;

export function AuditLog({ me }: { me: Me }) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ auditLogs: AuditEvent[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (me.role === 'member') return;
    let current = true;
    api('get', '/v1/audit-logs', { query: { limit: PAGE, offset } }).then(
      (res) => current && setPage(res),
      (caught: unknown) => current && setError(caught instanceof ApiError ? caught.message : 'Could not load the audit log'),
    );
    return () => {
      current = false;
    };
  }, [me.role, offset]);

  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit log</h1>
      <p class="hint">
        Sign-ins, keys, roles, approvals, budgets and other security events. See also the gateway's <a href="/console/requests">requests</a>.
      </p>
      {me.role === 'member' && <p>The audit log is shown to admins and the owner.</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {page && (
        <>
          <div class="table-scroll" role="region" aria-label="Audit events table" tabIndex={0}>
            <table data-testid="audit-table">
              <caption class="visually-hidden">Audit events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Action</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {page.auditLogs.map((event) => (
                  <tr key={event.id}>
                    <td>
                      <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time>
                    </td>
                    <td>
                      <code>{event.action}</code>
                    </td>
                    <td>
                      {event.actorUserId ? (event.actorUserId === me.id ? 'you' : `user ${event.actorUserId.slice(0, 8)}…`) : 'system'}
                      {event.actorApiKeyId && <span class="meta"> with key {event.actorApiKeyId.slice(0, 8)}…</span>}
                    </td>
                    <td>{event.targetType ? `${event.targetType} ${event.targetId?.slice(0, 8) ?? ''}…` : '—'}</td>
                    <td class="output">{Object.keys(event.metadata).length ? JSON.stringify(event.metadata) : '—'}</td>
                  </tr>
                ))}
                {page.auditLogs.length === 0 && (
                  <tr>
                    <td colSpan={5}>No events yet.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager label="Audit events" offset={offset} limit={PAGE} shown={page.auditLogs.length} total={page.total} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}
