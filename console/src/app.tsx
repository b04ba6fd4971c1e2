// The console's shell: who is signed in (GET /v1/users/me), the navigation, and the view the
// path names. A 401 from any call shows the sign-in again.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type Ok } from './api';
import { onLinkClick, useRoute } from './router';
import { SignIn } from './views/sign-in';
import { Overview } from './views/overview';
import { Approvals } from './views/approvals';
import { Automations } from './views/automations';
import { Keys } from './views/keys';
import { Requests } from './views/requests';
import { AuditLog } from './views/audit';
import { SkillsAndTools } from './views/skills';

export type Me = Ok<'/v1/users/me', 'get'>;

const VIEWS: Array<{ route: string; label: string }> = [
  { route: '/', label: 'Overview' },
  { route: '/approvals', label: 'Approvals' },
  { route: '/automations', label: 'Automations' },
  { route: '/keys', label: 'Keys' },
  { route: '/requests', label: 'Requests' },
  { route: '/audit', label: 'Audit log' },
  { route: '/skills', label: 'Skills and tools' },
];

export function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const refresh = useCallback(() => {
    api('get', '/v1/users/me').then(setMe, () => setMe(null));
  }, []);
  useEffect(() => {
    refresh();
    const signedOut = () => setMe(null);
    window.addEventListener('console:signed-out', signedOut);
    return () => window.removeEventListener('console:signed-out', signedOut);
  }, [refresh]);
  useEffect(() => {
    const view = VIEWS.find((v) => v.route === route);
    document.title = `${view?.label ?? 'Not found'} · Console`;
  }, [route]);

  if (me === undefined) return <main class="loading" aria-busy="true">Loading…</main>;
  if (me === null) return <SignIn onSignedIn={refresh} />;

  const signOut = async () => {
    await api('post', '/v1/auth/logout').catch(() => undefined);
    setMe(null);
  };
  return (
    <div class="shell" onClick={(event) => onLinkClick(event as unknown as MouseEvent)}>
      <header class="top">
        <a class="brand" href="/console/">AI Workspace</a>
        <nav aria-label="Console">
          <ul>
            {VIEWS.map((view) => (
              <li key={view.route}>
                <a href={`/console${view.route === '/' ? '/' : view.route}`} aria-current={route === view.route ? 'page' : undefined}>
                  {view.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {me.email} <span class="role">({me.role})</span>
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {route === '/' && <Overview me={me} />}
        {route === '/approvals' && <Approvals me={me} />}
        {route === '/automations' && <Automations />}
        {route === '/keys' && <Keys />}
        {route === '/requests' && <Requests />}
        {route === '/audit' && <AuditLog me={me} />}
        {route === '/skills' && <SkillsAndTools />}
        {!VIEWS.some((v) => v.route === route) && (
          <section>
            <h1>Not found</h1>
            <p>
              No console page at this address. <a href="/console/">Go to the overview</a>.
            </p>
          </section>
        )}
      </main>
    </div>
  );
}
