import { button, clear, h, labelled, setText } from './dom.js';
import { clock } from './format.js';
import type { SessionContext } from './session-context.js';
import type { EventPage } from './wire-types.js';

const PAGE = 100;

/** The end of a deep path (where the agent is), the whole path in the tooltip. */
const shortPath = (path: string) => {
  const parts = path.split('/');
  return parts.length > 3 ? `…/${parts.slice(-2).join('/')}` : path;
};

/**
 * The event timeline, a page of 100 at a time (a 10,000-event session sends and draws one page),
 * filterable by agent (an agent's nested agents included), nested paths indented. On the last
 * page it follows new events live.
 */
export class TimelinePanel {
  readonly element = h('section', { class: 'panel timeline', attrs: { 'aria-labelledby': 'timeline-title' } });
  private readonly agentSelect = h('select', null);
  private readonly cursorToggle = h('input', { attrs: { type: 'checkbox' } });
  private readonly cursorLabel = h('label', { attrs: { for: 'timeline-cursors' } }, 'Cursor events');
  private readonly list = h('ol', { class: 'events', attrs: { 'aria-label': 'Events' } });
  private readonly pager = h('nav', { class: 'pager', attrs: { 'aria-label': 'Event pages' } });
  private offset = -1; // -1: the last page, following
  private agents: readonly string[] = [];
  private selected: number | undefined;

  constructor(private readonly ctx: SessionContext) {
    this.agentSelect.addEventListener('change', () => {
      this.offset = -1;
      void this.load();
    });
    this.cursorToggle.id = 'timeline-cursors';
    this.cursorToggle.addEventListener('change', () => {
      this.offset = -1;
      void this.load();
    });
    this.element.append(
      h(
        'div',
        { class: 'panel-head' },
        h('h2', { attrs: { id: 'timeline-title' } }, 'Timeline'),
        h(
          'div',
          { class: 'timeline-controls' },
          labelled('Agent', this.agentSelect, 'timeline-agent'),
          h(
            'div',
            { class: 'field toggle', attrs: { title: 'Where each agent stands, written by the runner so a run can resume' } },
            this.cursorToggle,
            this.cursorLabel,
          ),
        ),
      ),
      this.list,
      this.pager,
    );
  }

  setAgents(agents: readonly string[]): void {
    if (agents.join('\n') === this.agents.join('\n')) return;
    this.agents = agents;
    const current = this.agentSelect.value;
    clear(this.agentSelect);
    this.agentSelect.append(
      h('option', { attrs: { value: '' } }, 'All agents'),
      ...agents.map((a) => h('option', { attrs: { value: a } }, a)),
    );
    this.agentSelect.value = agents.includes(current) ? current : '';
  }

  select(index: number | undefined): void {
    this.selected = index;
    for (const row of this.list.querySelectorAll('button[data-index]'))
      row.classList.toggle('selected', Number((row as HTMLElement).dataset.index) === index);
  }

  /** Reloads the page shown (live updates reload only when following the end). */
  async load(onlyIfFollowing = false): Promise<void> {
    if (onlyIfFollowing && this.offset !== -1) return;
    const page = await this.ctx.api.get<EventPage>('events', {
      ...this.ctx.params,
      agent: this.agentSelect.value,
      cursors: this.cursorToggle.checked ? 'show' : undefined,
      offset: this.offset,
      limit: PAGE,
    });
    this.draw(page);
  }

  private draw(page: EventPage): void {
    setText(this.cursorLabel, `Show the runner’s cursor events (${page.cursorEvents})`);
    clear(this.list);
    for (const row of page.rows)
      this.list.appendChild(
        h(
          'li',
          { class: `event depth-${Math.min(row.depth, 6)}${row.hasError ? ' has-error' : ''}${row.codeCall ? ' code-inner' : ''}` },
          h(
            'button',
            {
              class: `event-row${row.index === this.selected ? ' selected' : ''}`,
              attrs: { type: 'button', 'data-index': String(row.index) },
              on: { click: () => this.ctx.showEvent(row.index) },
            },
            h('span', { class: 'event-time' }, clock(row.timestamp)),
            h('span', { class: 'event-path', attrs: { title: row.path } }, shortPath(row.path)),
            h('span', { class: `event-kind kind-${row.kind.replace(/[^a-z-]/g, '')}` }, row.kind),
            h('span', { class: 'event-summary' }, row.summary),
          ),
        ),
      );
    if (!page.rows.length) this.list.appendChild(h('li', { class: 'empty' }, 'No events.'));
    const last = Math.max(0, page.total - PAGE);
    const to = (offset: number) => {
      this.offset = offset >= last ? -1 : Math.max(0, offset);
      void this.load();
    };
    clear(this.pager);
    this.pager.append(
      button('First', () => to(0), { disabled: page.offset === 0, label: 'First events' }),
      button('Previous', () => to(page.offset - PAGE), { disabled: page.offset === 0, label: 'Earlier events' }),
      h(
        'span',
        { class: 'page-number' },
        page.total
          ? `${page.offset + 1}–${page.offset + page.rows.length} of ${page.total}${this.offset === -1 ? ' · live' : ''}`
          : '0 events',
      ),
      button('Next', () => to(page.offset + PAGE), { disabled: page.offset >= last, label: 'Later events' }),
      button('Last', () => to(last), { disabled: page.offset >= last, label: 'Latest events' }),
    );
  }
}
