import { forecastText } from './budget-text.js';
import { button, clear, h, labelled } from './dom.js';
import { approveAnswer, editAnswer, type EditableStep, grantText, type PlanReviewView, rejectAnswer } from './plan-review-form.js';
import type { PlanForecastView } from './wire-types.js';

/** Sends an answer; resolves to the server's message when it was refused, else `undefined`. */
export type SendAnswer = (value: unknown, what: string) => Promise<string | undefined>;

/**
 * A plan held for review, shown as its steps (with the diff of a revision and the reason of a
 * stall), and — when the studio can act — Approve, Edit (the steps as inputs, one per step, with
 * add and remove; graph steps with their id and dependencies) and Reject with feedback. A refused
 * answer (an invalid edit) shows the server's message here and leaves the review open.
 */
export function planReviewView(review: PlanReviewView, key: string, canAct: boolean, send: SendAnswer): HTMLElement {
  const graph = review.mode === 'graph';
  const error = h('p', { class: 'review-error', attrs: { role: 'alert' } });
  error.hidden = true;
  const sendAndShow = async (value: unknown, what: string) => {
    const refused = await send(value, what);
    error.hidden = refused === undefined;
    error.textContent = refused ?? '';
  };
  const stepsList = h(
    graph ? 'ul' : 'ol',
    { class: 'review-steps' },
    ...review.steps.map((s) =>
      h('li', null, `${graph ? `${s.id}: ${s.task}${s.dependsOn ? ` (after ${s.dependsOn})` : ''}` : s.task}${grantText(s)}`),
    ),
  );
  const header = h(
    'p',
    { class: 'muted' },
    `${review.role === 'replanner' ? 'A revision' : 'The plan'} by ${review.agent || review.role}, held for review: no step of it has run.`,
  );
  const reason = review.reason ? h('p', { class: 'review-reason' }, `Why: ${review.reason}`) : null;
  const forecast = review.forecast ? forecastView(review.forecast) : null;
  const diff = review.diff.length
    ? h(
        'div',
        { class: 'review-diff' },
        h('h4', null, 'What it changes'),
        h('ul', null, ...review.diff.map((line) => h('li', { attrs: { 'data-change': line.slice(0, 1) } }, line))),
      )
    : null;
  if (!canAct) return h('div', { class: 'plan-review' }, header, reason, forecast, stepsList, diff);

  const feedback = h('input', { attrs: { type: 'text', autocomplete: 'off', placeholder: 'what the planner should do differently' } });
  const editor = h('div', { class: 'review-editor' });
  editor.hidden = true;
  let rows: EditableStep[] = review.steps.map((s) => ({ ...s }));
  const inputs: { id?: HTMLInputElement; task: HTMLInputElement; deps?: HTMLInputElement }[] = [];
  // A step keeps its tools (plan grants) through an edit of its text; an added step has none.
  const read = (): EditableStep[] =>
    inputs.map((r, i) => ({ ...rows[i], id: r.id?.value ?? '', task: r.task.value, dependsOn: r.deps?.value ?? '' }));
  const renderEditor = () => {
    clear(editor);
    inputs.length = 0;
    const list = h('ol', { class: 'review-edit-steps' });
    rows.forEach((row, n) => {
      const field = (value: string) => {
        const input = h('input', { attrs: { type: 'text', autocomplete: 'off' } });
        input.value = value;
        return input;
      };
      const task = field(row.task);
      const entry: (typeof inputs)[number] = { task };
      const fields: HTMLElement[] = [];
      if (graph) {
        entry.id = field(row.id);
        const idField = labelled(`Step ${n + 1} id`, entry.id, `review-${key}-id-${n}`);
        idField.classList.add('step-id');
        fields.push(idField);
      }
      fields.push(labelled(`Step ${n + 1}`, task, `review-${key}-task-${n}`));
      if (graph) {
        entry.deps = field(row.dependsOn);
        const depsField = labelled(`Step ${n + 1} depends on`, entry.deps, `review-${key}-deps-${n}`);
        depsField.classList.add('step-deps');
        fields.push(depsField);
      }
      if (grantText(row)) fields.push(h('span', { class: 'muted step-grant' }, grantText(row)));
      inputs.push(entry);
      list.append(
        h(
          'li',
          { class: 'review-edit-step' },
          ...fields,
          button(
            'Remove',
            () => {
              rows = read();
              rows.splice(n, 1);
              renderEditor();
            },
            { label: `Remove step ${n + 1}` },
          ),
        ),
      );
    });
    editor.append(
      list,
      h(
        'div',
        { class: 'interrupt-controls' },
        button('Add step', () => {
          rows = [...read(), { id: graph ? `s${rows.length + 1}` : '', task: '', dependsOn: '' }];
          renderEditor();
          inputs.at(-1)?.task.focus();
        }),
        button('Send edited plan', () => void sendAndShow(editAnswer(review.mode, read()), 'Plan edited'), { class: 'primary' }),
        button('Cancel edit', () => {
          rows = review.steps.map((s) => ({ ...s }));
          editor.hidden = true;
          stepsList.hidden = false;
          controls.hidden = false;
        }),
      ),
    );
  };
  const controls = h(
    'div',
    { class: 'interrupt-controls' },
    button('Approve', () => void sendAndShow(approveAnswer(), 'Plan approved'), { class: 'primary' }),
    button('Edit', () => {
      renderEditor();
      editor.hidden = false;
      stepsList.hidden = true;
      // While editing, the answer is the edited plan: Approve and Reject come back with Cancel.
      controls.hidden = true;
      inputs[0]?.task.focus();
    }),
    labelled('Feedback for the planner', feedback, `review-${key}-feedback`),
    button(
      'Reject',
      () => {
        if (!feedback.value.trim()) {
          error.hidden = false;
          error.textContent = 'Write the feedback for the planner first: it plans again with it.';
          return;
        }
        void sendAndShow(rejectAnswer(feedback.value), 'Plan rejected');
      },
      { class: 'danger' },
    ),
  );
  return h('div', { class: 'plan-review' }, header, reason, forecast, stepsList, diff, editor, controls, error);
}

/** The plan's forecast against the budget: whether it fits, then the estimates against what is available. */
function forecastView(forecast: PlanForecastView): HTMLElement {
  return h(
    'p',
    { class: `review-forecast ${forecast.fits ? 'fits' : 'over'}`, attrs: { 'data-fits': String(forecast.fits) } },
    h('strong', null, forecast.fits ? 'Fits the budget: ' : 'Over budget: '),
    forecastText(forecast),
  );
}
