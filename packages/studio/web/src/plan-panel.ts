import { button, clear, h } from './dom.js';
import { clock, cost, count, tokens } from './format.js';
import { planGraph } from './plan-graph.js';
import type { SessionContext } from './session-context.js';
import type { PlanRevision } from './wire-types.js';

/**
 * The plan: a list (linear mode) or a dependency graph (graph mode) with each step's status, and
 * its versions to step through with what each changed. Follows the latest version unless the
 * user picked an earlier one.
 */
export class PlanPanel {
  readonly element = h('section', { class: 'panel plan', attrs: { 'aria-labelledby': 'plan-title' } });
  private revisions: readonly PlanRevision[] = [];
  private shown: number | undefined; // undefined: follow the latest
  private selected: string | undefined;

  constructor(private readonly ctx: SessionContext) {}

  update(revisions: readonly PlanRevision[], selected: string | undefined): void {
    this.revisions = revisions;
    this.selected = selected;
    this.render();
  }

  private render(): void {
    const el = this.element;
    clear(el);
    el.appendChild(h('h2', { attrs: { id: 'plan-title' } }, 'Plan'));
    if (!this.revisions.length) {
      el.appendChild(h('p', { class: 'empty' }, 'No plan in this session (not a plan–execute run, or the planner has not answered yet).'));
      return;
    }
    const last = this.revisions.length - 1;
    const index = Math.min(this.shown ?? last, last);
    const revision = this.revisions[index] as PlanRevision;
    const go = (i: number) => {
      this.shown = i >= last ? undefined : i;
      this.render();
      (this.element.querySelector(i >= last ? '.rev-next' : '.rev-prev') as HTMLButtonElement | null)?.focus();
    };
    el.appendChild(
      h(
        'nav',
        { class: 'revisions', attrs: { 'aria-label': 'Plan versions' } },
        button('◀', () => go(index - 1), { class: 'rev-prev', label: 'Previous plan version', disabled: index === 0 }),
        h(
          'span',
          { class: 'rev-label', attrs: { 'aria-live': 'polite' } },
          `Version ${index + 1} of ${this.revisions.length} · ${revision.author} · ${clock(revision.timestamp)} · ${revision.mode}`,
        ),
        button('▶', () => go(index + 1), { class: 'rev-next', label: 'Next plan version', disabled: index === last }),
      ),
    );
    if (index > 0 && (revision.added.length || revision.removed.length))
      el.appendChild(
        h(
          'ul',
          { class: 'changes', attrs: { 'aria-label': 'What this version changed' } },
          ...revision.added.map((l) => h('li', { class: 'added' }, `+ ${l}`)),
          ...revision.removed.map((l) => h('li', { class: 'removed' }, `− ${l}`)),
        ),
      );
    if (revision.mode === 'graph') {
      el.appendChild(
        h(
          'div',
          { class: 'graph-wrap' },
          planGraph(revision.steps, this.selected, (key) => this.ctx.showStep(key)),
        ),
      );
    }
    el.appendChild(
      h(
        'ol',
        { class: `steps steps-${revision.mode}` },
        ...revision.steps.map((step) =>
          h(
            'li',
            { class: `step status-${step.status}`, attrs: { 'data-step': step.key, 'data-status': step.status } },
            h(
              'button',
              {
                class: `step-button${step.key === this.selected ? ' selected' : ''}`,
                attrs: { type: 'button', 'aria-label': `Step ${step.key}, ${step.status}: ${step.label}` },
                on: { click: () => this.ctx.showStep(step.key) },
              },
              h('span', { class: `badge status-${step.status}` }, step.status),
              h('span', { class: 'step-key' }, step.key),
              h('span', { class: 'step-label' }, step.label),
              step.dependsOn.length || step.tokens
                ? h(
                    'span',
                    { class: 'muted deps' },
                    [
                      step.dependsOn.length ? `after ${step.dependsOn.join(', ')}` : '',
                      step.tokens
                        ? `${count(step.modelCalls ?? 0, 'model call')} · ${tokens(step.tokens)}${step.cost !== undefined ? ` · ${cost(step.cost)}` : ''}`
                        : '',
                    ]
                      .filter(Boolean)
                      .join(' · '),
                  )
                : null,
            ),
          ),
        ),
      ),
    );
  }
}
