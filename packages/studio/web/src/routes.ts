/** The page's places, kept in the URL hash so Back works and a view can be linked. */
export type Route =
  | { readonly page: 'sessions'; readonly app?: string; readonly user?: string }
  | { readonly page: 'session'; readonly app: string; readonly user: string; readonly id: string };

export function readRoute(): Route {
  const hash = location.hash.replace(/^#/, '');
  const [path = '', query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const app = params.get('app') ?? undefined;
  const user = params.get('user') ?? undefined;
  const id = params.get('id') ?? undefined;
  if (path === '/session' && app && user && id) return { page: 'session', app, user, id };
  return { page: 'sessions', ...(app ? { app } : {}), ...(user ? { user } : {}) };
}

/** The hash of a route; every id is URL-encoded. */
export function hrefOf(route: Route): string {
  const params = new URLSearchParams();
  if (route.app) params.set('app', route.app);
  if (route.user) params.set('user', route.user);
  if (route.page === 'session') {
    params.set('id', route.id);
    return `#/session?${params}`;
  }
  return `#/?${params}`;
}

export function go(route: Route): void {
  location.hash = hrefOf(route);
}
