import { budgetBlock, partialBlock } from './budget-blocks.js';
import type { Api } from './api.js';
import { append, button, clear, h, setText } from './dom.js';
import { cost, count, time, tokens } from './format.js';
import { DetailPanel } from './detail-panel.js';
import { interruptsPanel } from './interrupts-panel.js';
import { PlanPanel } from './plan-panel.js';
import { hrefOf } from './routes.js';
import type { SessionContext } from './session-context.js';
import { TimelinePanel } from './timeline-panel.js';
import type { SessionDigest, StudioInfo } from './wire-types.js';

/** ` · cost …` when the studio was given prices (with how many calls it could not price). */
const sessionCost = (d: SessionDigest): string => {
  if (!d.cost) return '';
  const unpriced = d.cost.unpricedModelCalls ? ` (${count(d.cost.unpricedModelCalls, 'call')} unpriced)` : '';
  return ` · ${cost(d.cost.total)}${unpriced}`;
};

const RESUMABLE = new Set(['failed', 'running', 'budget_exceeded', 'aborted']);

/** A child session's link to the session whose tool call runs it, and where it is answered and resumed. */
function childNote(params: { app: string; user: string }, parent: NonNullable<SessionDigest['parent']>): HTMLElement {
  const link = (id: string) => h('a', { attrs: { href: hrefOf({ page: 'session', app: params.app, user: params.user, id }) } }, id);
  return h(
    'p',
    { class: 'block', attrs: { 'data-child-of': parent.sessionId } },
    `A child session: an agent run as a tool by call ${parent.toolCallId} of session `,
    link(parent.sessionId),
    '. It runs only inside the run of session ',
    link(parent.rootSessionId),
    ': its questions are answered there, and resuming resumes that session.',
  );
}

/**
 * One session: header with status and actions, open interrupts, the plan, the detail of a step
 * or event, and the timeline — kept live by the server's change stream. Returns a function that
 * stops following it.
 */
export async function renderSessionPage(
  root: HTMLElement,
  api: Api,
  info: StudioInfo,
  params: { app: string; user: string; id: string },
): Promise<() => void> {
  const status = h('p', { class: 'toast', attrs: { role: 'status', 'aria-live': 'polite' } });
  const header = h('header', { class: 'session-head' });
  const interrupts = h('div', { class: 'interrupts-slot' });
  let refreshing: Promise<void> | undefined;
  let again = false;
  const ctx: SessionContext = {
    api,
    params,
    canAct: info.runnerApps.includes(params.app),
    showStep: (key) => {
      void detail.showStep(key).catch((e: Error) => ctx.say(e.message));
      plan.update(digest?.revisions ?? [], key);
    },
    showEvent: (index) => {
      timeline.select(index);
      void detail.showEvent(index).catch((e: Error) => ctx.say(e.message));
    },
    refresh: () => void refresh(),
    say: (message) => {
      setText(status, message);
    },
  };
  const plan = new PlanPanel(ctx);
  const detail = new DetailPanel(ctx);
  const timeline = new TimelinePanel(ctx);
  let digest: SessionDigest | undefined;

  const drawHeader = (d: SessionDigest) => {
    clear(header);
    append(
      header,
      h('a', { class: 'back', attrs: { href: hrefOf({ page: 'sessions', app: params.app, user: params.user }) } }, '← Sessions'),
      h('h1', null, h('span', { class: 'muted' }, 'Session '), d.key.id),
      h(
        'p',
        { class: 'session-facts' },
        h('span', { class: `badge status-${d.status}`, attrs: { 'data-status': d.status } }, d.status.replace('_', ' ')),
        ` ${d.key.appName} · ${d.key.userId} · ${count(d.eventCount, 'event')} · ${tokens(d.tokens)}${sessionCost(d)} · updated ${time(d.updatedAt)}`,
      ),
      d.runner === null
        ? h(
            'p',
            { class: 'block block-warn', attrs: { 'data-runner': 'none' } },
            'No process is running this run: it is queued, or the process running it stopped without ending it (a crash). ' +
              'Resume continues it where it stopped.',
          )
        : d.runner
          ? h(
              'p',
              { class: 'session-runner muted', attrs: { 'data-runner': 'held' } },
              `Running in ${d.runner.owner} (lease until ${time(d.runner.expiresAt)})`,
            )
          : null,
      d.parent ? childNote(params, d.parent) : null,
      d.error ? h('p', { class: 'block block-error' }, h('strong', null, d.error.name), `: ${d.error.message}`) : null,
      d.blocked ? h('p', { class: 'block block-warn', attrs: { 'data-blocked': '' } }, d.blocked) : null,
      budgetBlock(d),
      partialBlock(d),
      d.output !== undefined
        ? h('div', { class: 'block block-result' }, h('div', { class: 'block-head' }, 'Answer'), h('pre', null, d.output))
        : null,
      ctx.canAct && RESUMABLE.has(d.status)
        ? button(
            d.parent ? `Resume session ${d.parent.rootSessionId}` : 'Resume run',
            () =>
              void api
                // A child session runs only inside its root session's run: resuming that resumes it.
                .post('resume', d.parent ? { ...params, id: d.parent.rootSessionId } : params)
                .then(() => ctx.say(d.parent ? `Resumed session ${d.parent.rootSessionId}.` : 'Resumed.'))
                .catch((e: Error) => ctx.say(e.message)),
            { class: 'primary' },
          )
        : null,
      status,
    );
  };

  const refresh = async (): Promise<void> => {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        const [next] = await Promise.all([api.get<SessionDigest>('session', params), timeline.load(true)]);
        digest = next;
        drawHeader(digest);
        clear(interrupts);
        const panel = interruptsPanel(ctx, digest.interrupts);
        if (panel) interrupts.appendChild(panel);
        plan.update(digest.revisions, detail.shownStep);
        timeline.setAgents(digest.agents);
        await detail.refresh();
      } while (again);
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  clear(root);
  root.appendChild(
    h('main', { class: 'session' }, header, interrupts, h('div', { class: 'columns' }, plan.element, detail.element), timeline.element),
  );
  await refresh();
  let seen = digest?.version ?? 0;
  return api.follow(params, (version) => {
    if (version === seen) return;
    seen = version;
    void refresh().catch((e: Error) => ctx.say(e.message));
  });
}
