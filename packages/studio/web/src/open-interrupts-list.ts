import type { Api } from './api.js';
import { clear, h } from './dom.js';
import { count, time } from './format.js';
import { hrefOf } from './routes.js';
import type { OpenInterruptsList } from './wire-types.js';

/** How often the list is looked for again while the first page is shown. */
const REFRESH_MS = 5000;

/**
 * The first page's "Open interrupts": what waits for a person in any app and user the studio
 * knows, newest first, each with a link to its session (where it is answered). Filled in after
 * the rest of the page is drawn (finding them reads every session's status), then again every
 * few seconds while the page is shown.
 */
export function openInterruptsSection(api: Api): HTMLElement {
  const body = h('div', { class: 'open-interrupts-body' }, h('p', { class: 'muted' }, 'Looking for questions that wait for a person…'));
  const section = h(
    'section',
    { class: 'panel open-interrupts', attrs: { 'aria-labelledby': 'open-interrupts-title', 'aria-busy': 'true' } },
    h('h2', { attrs: { id: 'open-interrupts-title' } }, 'Open interrupts'),
    body,
  );
  let shown = '';
  const load = async () => {
    try {
      const list = await api.get<OpenInterruptsList>('interrupts');
      const json = JSON.stringify(list);
      if (json !== shown) {
        shown = json;
        clear(body);
        body.append(...listElements(list));
      }
    } catch (error) {
      shown = '';
      clear(body);
      body.appendChild(h('p', { class: 'block block-error', attrs: { role: 'alert' } }, (error as Error).message));
    }
    section.setAttribute('aria-busy', 'false');
    section.dataset.ready = 'true';
    // Kept current while the first page is shown (a run elsewhere may ask, or be answered).
    setTimeout(() => {
      if (section.isConnected) void load();
    }, REFRESH_MS);
  };
  void load();
  return section;
}

function listElements(list: OpenInterruptsList): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (!list.interrupts.length) out.push(h('p', { class: 'empty' }, 'Nothing waits for a person.'));
  else
    out.push(
      h(
        'ul',
        { class: 'open-interrupt-list' },
        ...list.interrupts.map((row) =>
          h(
            'li',
            { class: 'open-interrupt', attrs: { 'data-session': row.sessionId, 'data-interrupt': row.interrupt.id } },
            h(
              'a',
              { attrs: { href: hrefOf({ page: 'session', app: row.appName, user: row.userId, id: row.sessionId }) } },
              row.interrupt.toolName ? `${row.interrupt.reason} · ${row.interrupt.toolName}` : row.interrupt.reason,
            ),
            h('span', { class: 'muted' }, ' in app ', h('strong', null, row.appName), ' for user ', h('strong', null, row.userId)),
            h('span', { class: 'muted' }, ` · session ${row.sessionId} · ${time(row.updatedAt)}`),
            h('div', { class: 'open-interrupt-summary' }, row.summary),
          ),
        ),
      ),
    );
  if (!list.complete)
    out.push(h('p', { class: 'hint' }, `Looked at ${count(list.scanned, 'session')} only: more questions may wait in the others.`));
  if (list.appsWithoutUsers.length)
    out.push(
      h(
        'p',
        { class: 'hint' },
        `No user is known for ${list.appsWithoutUsers.join(', ')}: this store cannot list them (pass --user), so their questions are not looked for.`,
      ),
    );
  return out;
}
