import { button, h, labelled } from './dom.js';
import type { SessionContext } from './session-context.js';
import { readPlanReview } from './plan-review-form.js';
import { planReviewView } from './plan-review-panel.js';
import { hrefOf } from './routes.js';
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
  /**
   * Answers `interrupt` with `value`: in this session, or — for a child session's interrupt — in
   * the root session under the nested id (the run there resumes the child exactly once).
   */
  const answer = async (interrupt: InterruptView, value: unknown, what: string): Promise<string | undefined> => {
    const target = interrupt.answerIn;
    try {
      await ctx.api.post('resume', {
        ...ctx.params,
        ...(target ? { id: target.sessionId } : {}),
        values: { [target?.interruptId ?? interrupt.id]: value },
      });
      // Past tense: the note stays while the run goes on and after it ended (the badge says which).
      ctx.say(
        target
          ? `${what} ${interrupt.id} in session ${target.sessionId}: its run resumed, and this child session with it.`
          : `${what} ${interrupt.id}: the run resumed.`,
      );
      ctx.refresh();
      return undefined;
    } catch (error) {
      ctx.say((error as Error).message);
      return (error as Error).message;
    }
  };
  return h(
    'section',
    { class: 'panel interrupts', attrs: { 'aria-labelledby': 'interrupts-title' } },
    h('h2', { attrs: { id: 'interrupts-title' } }, 'Waiting for you'),
    ...interrupts.map((interrupt, i) => {
      const review = readPlanReview(interrupt.payload);
      if (review)
        return h(
          'article',
          { class: 'interrupt', attrs: { 'data-interrupt': interrupt.id, 'data-reason': interrupt.reason } },
          h('h3', null, 'Plan review'),
          h('p', { class: 'muted' }, `${interrupt.path} · ${interrupt.id}`),
          planReviewView(review, String(i), ctx.canAct, (value, what) => answer(interrupt, value, what)),
        );
      const approval = interrupt.reason === 'approval';
      const target = interrupt.answerIn;
      const text = h('input', {
        attrs: { type: 'text', autocomplete: 'off', placeholder: approval ? 'why (sent to the model)' : 'text or JSON' },
      });
      const controls = ctx.canAct
        ? h(
            'div',
            { class: 'interrupt-controls' },
            ...(interrupt.reason === 'approval'
              ? [
                  button('Approve', () => void answer(interrupt, true, 'Approved'), { class: 'primary' }),
                  button(
                    'Reject',
                    () => void answer(interrupt, { approved: false, message: text.value || 'Rejected in the studio' }, 'Rejected'),
                    { class: 'danger' },
                  ),
                ]
              : []),
            labelled(interrupt.reason === 'approval' ? 'Reason (optional)' : 'Answer', text, `interrupt-answer-${i}`),
            interrupt.reason === 'approval'
              ? null
              : button('Send answer', () => void answer(interrupt, answerValue(text.value), 'Answered'), { class: 'primary' }),
          )
        : h('p', { class: 'muted' }, 'Read-only: start the studio with this app’s runner to answer.');
      return h(
        'article',
        { class: 'interrupt', attrs: { 'data-interrupt': interrupt.id } },
        h('h3', null, interrupt.toolName ? `${interrupt.reason} · ${interrupt.toolName}` : interrupt.reason),
        h('p', { class: 'muted' }, `${interrupt.path} · ${interrupt.id}`),
        h('pre', { class: 'payload' }, interrupt.payload),
        target
          ? h(
              'p',
              { class: 'block', attrs: { 'data-answer-in': target.sessionId } },
              'This is a child session (an agent run as a tool): the answer goes to ',
              h(
                'a',
                { attrs: { href: hrefOf({ page: 'session', app: ctx.params.app, user: ctx.params.user, id: target.sessionId }) } },
                `session ${target.sessionId}`,
              ),
              `, as its interrupt ${target.interruptId}; its run then resumes this one.`,
            )
          : null,
        controls,
      );
    }),
  );
}
