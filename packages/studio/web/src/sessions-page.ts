import type { Api } from './api.js';
import { button, clear, h, labelled, setText } from './dom.js';
import { offlineNote, time, tokens } from './format.js';
import { openInterruptsSection } from './open-interrupts-list.js';
import { go, hrefOf } from './routes.js';
import type { Owners, SessionListPage, StudioInfo } from './wire-types.js';

const PAGE_SIZE = 50;

/** The sessions of one app and user, a page at a time (the store's cursor), and a form to start a run. */
export async function renderSessionsPage(
  root: HTMLElement,
  api: Api,
  info: StudioInfo,
  selected: { app?: string; user?: string },
): Promise<void> {
  const owners = await api.get<Owners>('owners');
  const app = selected.app ?? owners.apps[0] ?? '';
  const user = selected.user ?? owners.users[app]?.[0] ?? '';

  const appSelect = h('select', null, ...owners.apps.map((a) => h('option', { attrs: { value: a } }, a)));
  if (app && !owners.apps.includes(app)) appSelect.appendChild(h('option', { attrs: { value: app } }, app));
  appSelect.value = app;
  const appInput = h('input', { attrs: { type: 'text', placeholder: 'app name', autocomplete: 'off' } });
  appInput.value = app;
  const userInput = h('input', { attrs: { type: 'text', list: 'known-users', placeholder: 'user id', autocomplete: 'off' } });
  userInput.value = user;
  const knownUsers = h(
    'datalist',
    { attrs: { id: 'known-users' } },
    ...(owners.users[app] ?? []).map((u) => h('option', { attrs: { value: u, label: u } })),
  );
  const appControl = owners.apps.length ? labelled('App', appSelect, 'filter-app') : labelled('App', appInput, 'filter-app');
  const readApp = () => (owners.apps.length ? appSelect.value : appInput.value.trim());
  appSelect.addEventListener('change', () =>
    go({
      page: 'sessions',
      app: appSelect.value,
      ...(owners.users[appSelect.value]?.[0] ? { user: owners.users[appSelect.value]?.[0] as string } : {}),
    }),
  );

  const filters = h(
    'form',
    {
      class: 'filters',
      attrs: { 'aria-label': 'Filter sessions' },
      on: {
        submit: (e) => {
          e.preventDefault();
          go({ page: 'sessions', app: readApp(), user: userInput.value.trim() });
        },
      },
    },
    appControl,
    labelled('User', userInput, 'filter-user'),
    knownUsers,
    h('button', { attrs: { type: 'submit' } }, 'Show sessions'),
  );
  const hint = h(
    'p',
    { class: 'hint' },
    owners.discovery === 'directory'
      ? 'Apps and users found in the store directory.'
      : 'This store cannot list its apps and users: type them (or pass --app/--user to replan studio).',
  );
  const table = h('div', { class: 'table-wrap' });
  const pager = h('nav', { class: 'pager', attrs: { 'aria-label': 'Session pages' } });
  const main = h(
    'main',
    { class: 'sessions' },
    h('h1', { class: 'visually-hidden' }, 'replan studio'),
    h('div', { class: 'overview' }, openInterruptsSection(api), runnersNote(info)),
    h('h2', { class: 'page-title' }, 'Sessions'),
    filters,
    hint,
    app && user ? h('p', { class: 'showing' }, 'Sessions of user ', h('strong', null, user), ' in app ', h('strong', null, app)) : null,
  );
  if (info.runnerApps.includes(app) && user) main.appendChild(newRunForm(api, app, user));
  main.append(table, pager);
  clear(root);
  root.appendChild(main);
  if (!app || !user) {
    table.appendChild(h('p', { class: 'empty' }, 'Choose an app and a user.'));
    return;
  }

  const cursors: (string | undefined)[] = [undefined];
  const show = async (pageIndex: number) => {
    const page = await api.get<SessionListPage>('sessions', { app, user, limit: PAGE_SIZE, cursor: cursors[pageIndex] });
    if (page.nextCursor) cursors[pageIndex + 1] = page.nextCursor;
    clear(table);
    if (!page.sessions.length) table.appendChild(h('p', { class: 'empty' }, `No sessions for user "${user}" in app "${app}".`));
    else
      table.appendChild(
        h(
          'table',
          { class: 'session-table' },
          h('caption', { class: 'visually-hidden' }, `Sessions of ${user} in ${app}`),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ...['Session', 'Status', 'Input', 'Events', 'Tokens', 'Last update'].map((c) => h('th', { attrs: { scope: 'col' } }, c)),
            ),
          ),
          h(
            'tbody',
            null,
            ...page.sessions.map((s) =>
              h(
                'tr',
                { attrs: { 'data-session': s.id } },
                h('td', null, h('a', { attrs: { href: hrefOf({ page: 'session', app, user, id: s.id }) } }, s.id)),
                h('td', null, h('span', { class: `badge status-${s.status}` }, s.status.replace('_', ' '))),
                h('td', { class: 'preview' }, s.preview),
                h('td', { class: 'num' }, s.version),
                h('td', { class: 'num' }, tokens(s.tokens)),
                h('td', null, time(s.updatedAt)),
              ),
            ),
          ),
        ),
      );
    clear(pager);
    pager.append(
      button('Previous page', () => void show(pageIndex - 1), { disabled: pageIndex === 0 }),
      h('span', { class: 'page-number' }, `Page ${pageIndex + 1}`),
      button('Next page', () => void show(pageIndex + 1), { disabled: !page.nextCursor }),
    );
  };
  await show(0);
}

/** Which runners answer with canned, offline models (a newcomer should not take the demo's answers for a model's). */
function runnersNote(info: StudioInfo): HTMLElement | null {
  const offline = info.runners.filter((r) => offlineNote(r));
  if (!offline.length) return null;
  return h(
    'aside',
    { class: 'panel runners-note', attrs: { 'aria-label': 'Runners' } },
    h('h2', null, 'Runners'),
    h(
      'ul',
      null,
      ...info.runners.map((r) =>
        h(
          'li',
          { attrs: { 'data-runner-app': r.app } },
          h('strong', null, r.app),
          offlineNote(r) ? h('span', { class: 'badge offline' }, offlineNote(r)) : null,
          r.models.length
            ? h('span', { class: 'muted' }, ` · ${r.models.length === 1 ? 'model' : 'models'} ${r.models.map((m) => m.id).join(', ')}`)
            : null,
        ),
      ),
    ),
    h('p', { class: 'hint' }, 'A scripted model answers from a script and a replay model from a recording: no model provider is called.'),
  );
}

function newRunForm(api: Api, app: string, user: string): HTMLElement {
  const input = h('textarea', { attrs: { rows: '2', placeholder: 'What should the agent do?' } });
  const sessionId = h('input', { attrs: { type: 'text', placeholder: 'optional: a new random id', autocomplete: 'off' } });
  const status = h('p', { class: 'form-status', attrs: { role: 'status' } });
  const start = async () => {
    if (!input.value.trim()) {
      setText(status, 'Type an input first.');
      return;
    }
    setText(status, 'Starting…');
    try {
      const started = await api.post<{ sessionId: string }>('run', { app, user, input: input.value, sessionId: sessionId.value.trim() });
      go({ page: 'session', app, user, id: started.sessionId });
    } catch (error) {
      setText(status, (error as Error).message);
    }
  };
  return h(
    'form',
    {
      class: 'new-run',
      attrs: { 'aria-label': 'Start a run' },
      on: {
        submit: (e) => {
          e.preventDefault();
          void start();
        },
      },
    },
    h('h2', null, `New run of ${app} for ${user}`),
    labelled('Input', input, 'run-input'),
    labelled('Session id', sessionId, 'run-session-id'),
    h('button', { attrs: { type: 'submit' } }, 'Start run'),
    status,
  );
}
