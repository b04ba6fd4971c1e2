// Client-side routes under /console/: the path picks the view; links push history entries.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/console';

export function currentRoute(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return path.replace(/\/+$/, '') || '/';
}

/** `route` may carry a query string (`/requests?status=error`): a view reads its own from location.search. */
export function navigate(route: string): void {
  history.pushState(null, '', BASE + (route === '/' ? '/' : route));
  window.dispatchEvent(new Event('popstate'));
}

export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}

/** A plain left click on a console link navigates without a reload; other clicks stay the browser's. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest('a');
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`) || anchor.target) return;
  event.preventDefault();
  navigate((url.pathname.slice(BASE.length) || '/') + url.search);
}
