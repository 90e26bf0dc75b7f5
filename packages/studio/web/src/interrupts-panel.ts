import { button, h, labelled } from './dom.js';
import type { SessionContext } from './session-context.js';
import type { InterruptView } from './wire-types.js';

/** An answer typed in the page: JSON when it parses, else the text itself. */
const answerValue = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Open interrupts with their payload and Approve / Reject / Answer controls that resume the run. */
export function interruptsPanel(ctx: SessionContext, interrupts: readonly InterruptView[]): HTMLElement | null {
  if (!interrupts.length) return null;
  const resume = async (values: Record<string, unknown>, what: string) => {
    try {
      await ctx.api.post('resume', { ...ctx.params, values });
      ctx.say(`${what}: the run goes on.`);
      ctx.refresh();
    } catch (error) {
      ctx.say((error as Error).message);
    }
  };
  return h(
    'section',
    { class: 'panel interrupts', attrs: { 'aria-labelledby': 'interrupts-title' } },
    h('h2', { attrs: { id: 'interrupts-title' } }, 'Waiting for you'),
    ...interrupts.map((interrupt, i) => {
      const approval = interrupt.reason === 'approval';
      const answer = h('input', {
        attrs: { type: 'text', autocomplete: 'off', placeholder: approval ? 'why (sent to the model)' : 'text or JSON' },
      });
      const controls = ctx.canAct
        ? h(
            'div',
            { class: 'interrupt-controls' },
            ...(interrupt.reason === 'approval'
              ? [
                  button('Approve', () => void resume({ [interrupt.id]: true }, 'Approved'), { class: 'primary' }),
                  button(
                    'Reject',
                    () =>
                      void resume({ [interrupt.id]: { approved: false, message: answer.value || 'Rejected in the studio' } }, 'Rejected'),
                    { class: 'danger' },
                  ),
                ]
              : []),
            labelled(interrupt.reason === 'approval' ? 'Reason (optional)' : 'Answer', answer, `interrupt-answer-${i}`),
            interrupt.reason === 'approval'
              ? null
              : button('Send answer', () => void resume({ [interrupt.id]: answerValue(answer.value) }, 'Answered'), { class: 'primary' }),
          )
        : h('p', { class: 'muted' }, 'Read-only: start the studio with this app’s runner to answer.');
      return h(
        'article',
        { class: 'interrupt', attrs: { 'data-interrupt': interrupt.id } },
        h('h3', null, interrupt.toolName ? `${interrupt.reason} · ${interrupt.toolName}` : interrupt.reason),
        h('p', { class: 'muted' }, `${interrupt.path} · ${interrupt.id}`),
        h('pre', { class: 'payload' }, interrupt.payload),
        controls,
      );
    }),
  );
}
