import { eventBody } from './blocks-view.js';
import { append, button, clear, h } from './dom.js';
import { count, duration, tokens } from './format.js';
import { go } from './routes.js';
import type { SessionContext } from './session-context.js';
import type { EventDetail, StateAt, StepDetail } from './wire-types.js';

function stateTable(title: string, scope: Readonly<Record<string, unknown>>): HTMLElement {
  const keys = Object.keys(scope).sort();
  return h(
    'section',
    { class: 'state-scope' },
    h('h4', null, title),
    keys.length
      ? h(
          'dl',
          null,
          ...keys.flatMap((k) => [h('dt', null, k), h('dd', null, h('pre', null, JSON.stringify(scope[k], null, 2) ?? 'undefined'))]),
        )
      : h('p', { class: 'muted' }, 'empty'),
  );
}

/** The right-hand panel: a step's detail, or an event with the state at that event and fork. */
export class DetailPanel {
  readonly element = h('section', { class: 'panel detail', attrs: { 'aria-labelledby': 'detail-title', 'aria-live': 'polite' } });
  private current: { kind: 'step'; key: string } | { kind: 'event'; index: number } | undefined;

  /** Blobs of this session, through the token-guarded blob route. */
  private readonly loadBlob = (id: string) => this.ctx.api.blob(id, this.ctx.params);

  constructor(private readonly ctx: SessionContext) {
    this.placeholder();
  }

  get shownStep(): string | undefined {
    return this.current?.kind === 'step' ? this.current.key : undefined;
  }

  private placeholder(): void {
    clear(this.element);
    append(
      this.element,
      h('h2', { attrs: { id: 'detail-title' } }, 'Detail'),
      h('p', { class: 'empty' }, 'Pick a step of the plan or an event of the timeline.'),
    );
  }

  async showStep(key: string): Promise<void> {
    this.current = { kind: 'step', key };
    const step = await this.ctx.api.get<StepDetail>('step', { ...this.ctx.params, key });
    if (this.current?.kind !== 'step' || this.current.key !== key) return;
    const shownCodeCalls = new Set(
      step.events.flatMap((e) =>
        e.innerCalls ? e.blocks.flatMap((b) => (b.type === 'tool_call' && b.program !== undefined ? [b.id] : [])) : [],
      ),
    );
    clear(this.element);
    append(
      this.element,
      h('h2', { attrs: { id: 'detail-title' } }, `Step ${step.key}`),
      h('p', { class: 'step-title' }, h('span', { class: `badge status-${step.status}` }, step.status), ' ', step.label),
      h(
        'p',
        { class: 'muted' },
        `${count(step.events.length, 'event')} · ${tokens(step.tokens)} · ${duration(step.latencyMs)}${step.toolCalls ? ` · ${count(step.toolCalls, 'tool call')}` : ''}`,
      ),
      step.result !== undefined
        ? h('div', { class: 'block block-result' }, h('div', { class: 'block-head' }, 'Result'), h('pre', null, step.result))
        : null,
      // A code call lists its inner calls under its program: their own events are not repeated.
      ...step.events
        .filter((e) => !(e.codeCall && shownCodeCalls.has(e.codeCall.id)))
        .map((e) => eventBody(e, this.loadBlob, (i) => this.ctx.showEvent(i))),
    );
  }

  async showEvent(index: number): Promise<void> {
    this.current = { kind: 'event', index };
    const detail = await this.ctx.api.get<EventDetail>('event', { ...this.ctx.params, index });
    if (this.current?.kind !== 'event' || this.current.index !== index) return;
    const stateBox = h('div', { class: 'state-at' });
    const showState = async () => {
      const state = await this.ctx.api.get<StateAt>('state', { ...this.ctx.params, index });
      clear(stateBox);
      stateBox.append(
        h('h3', null, `State after event #${state.index}`),
        stateTable('Session', state.session),
        stateTable('user: (shared by this user’s sessions)', state.user),
        stateTable('app: (shared by the app)', state.app),
        h('p', { class: 'muted' }, 'Shared keys this session never wrote show their current value.'),
      );
    };
    const fork = async () => {
      try {
        const forked = await this.ctx.api.post<{ sessionId: string }>('fork', { ...this.ctx.params, index });
        this.ctx.say(`Forked into session ${forked.sessionId}.`);
        go({ page: 'session', app: this.ctx.params.app, user: this.ctx.params.user, id: forked.sessionId });
      } catch (error) {
        this.ctx.say((error as Error).message);
      }
    };
    clear(this.element);
    append(
      this.element,
      h('h2', { attrs: { id: 'detail-title' } }, `Event #${index}`),
      h(
        'div',
        { class: 'detail-actions' },
        button('State at this event', () => void showState()),
        this.ctx.canAct ? button('Fork from here', () => void fork(), { label: `Fork a new session from event ${index}` }) : null,
      ),
      eventBody(detail.view, this.loadBlob, (i) => this.ctx.showEvent(i)),
      stateBox,
      h('details', { class: 'raw' }, h('summary', null, 'Stored JSON'), h('pre', null, detail.json)),
    );
  }

  /** Redraws a step shown (its status and events change while it runs). */
  async refresh(): Promise<void> {
    if (this.current?.kind === 'step') await this.showStep(this.current.key);
  }
}
