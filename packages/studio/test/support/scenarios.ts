import { agentTool, messageText, ReActAgent, Runner, tool, type ModelRequest, type SessionStore } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { z } from 'zod';

/** Text that would run if the page ever parsed data as HTML: it sets `window.__pwned`. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

const lastUserText = (request: ModelRequest) => messageText(request.messages.findLast((m) => m.role === 'user'));
const taskOf = (request: ModelRequest) => {
  const text = lastUserText(request);
  return (text.split('## YOUR TASK\n')[1] ?? text.split('## YOUR STEP\n')[1] ?? '').trim();
};
const isPlanner = (request: ModelRequest) => typeof request.toolChoice === 'object' && request.toolChoice.name === 'plan';
const isReplanner = (request: ModelRequest) => request.tools?.some((t) => t.name === 'respond') === true;
const afterTool = (request: ModelRequest) => request.messages.at(-1)?.role === 'tool';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a topic up.',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => (topic.includes('hostile') ? `found: ${HOSTILE}` : `notes on ${topic}`),
});

export interface GraphScenario {
  readonly runner: Runner;
  /** Lets step `c` (which waits for `a` and `b`) answer. */
  release(): void;
}

/**
 * Graph mode: `a` and `b` run in parallel, `c` depends on both and holds until `release()`, so
 * a test can watch the statuses change. Each step calls `lookup`; step `b`'s result is hostile HTML.
 */
export function graphScenario(store: SessionStore, appName = 'graph-app', latencyMs = 150): GraphScenario {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model = new ScriptedModel({
    id: 'graph-script',
    latencyMs,
    respond: async (request): Promise<ScriptedReply> => {
      if (isPlanner(request))
        return callTools({
          name: 'plan',
          args: {
            steps: [
              { id: 'a', task: 'Look up the alpha notes', dependsOn: [] },
              { id: 'b', task: 'Look up the hostile notes', dependsOn: [] },
              { id: 'c', task: 'Combine $a and $b', dependsOn: ['a', 'b'] },
            ],
          },
        });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'All three steps are done.' } });
      const task = taskOf(request);
      if (task.startsWith('Combine')) {
        await gate;
        return 'Combined both notes.';
      }
      if (afterTool(request)) return `Step done: ${task.slice(0, 40)}`;
      return callTools({ name: 'lookup', args: { topic: task.includes('hostile') ? 'hostile' : 'alpha' } });
    },
  });
  const agent = createPlanExecuteAgent({ model, tools: [lookup], mode: 'graph' });
  return { runner: new Runner({ agent, appName, sessionStore: store }), release: () => release() };
}

const sendReport = tool({
  name: 'send_report',
  description: 'Sends the report to the team.',
  parameters: z.object({ to: z.string() }),
  needsApproval: true,
  execute: ({ to }) => `report sent to ${to}`,
});

/** Linear mode: one step that calls `send_report`, which needs a human's approval. */
export function approvalScenario(store: SessionStore, appName = 'approval-app', latencyMs = 0): Runner {
  const model = new ScriptedModel({
    id: 'approval-script',
    latencyMs,
    respond: (request): ScriptedReply => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['Send the weekly report to the team'] } });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'The report was sent.' } });
      if (afterTool(request)) return 'Sent.';
      return callTools({ name: 'send_report', args: { to: 'team@example.com' } });
    },
  });
  const agent = createPlanExecuteAgent({ model, tools: [sendReport] });
  return new Runner({ agent, appName, sessionStore: store });
}

const askBudget = tool({
  name: 'ask_budget',
  description: 'Asks the user for the budget.',
  parameters: z.object({}),
  execute: (_args, ctx) => `budget is ${JSON.stringify(ctx.interrupt({ question: 'What is the budget?' }, { reason: 'question' }))}`,
});

/** Linear mode: one step whose tool asks the user a question (an interrupt answered with a value). */
export function questionScenario(store: SessionStore, appName = 'question-app'): Runner {
  const model = new ScriptedModel({
    id: 'question-script',
    respond: (request): ScriptedReply => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['Ask for the budget'] } });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'Budget noted.' } });
      if (afterTool(request)) return 'Noted.';
      return callTools({ name: 'ask_budget', args: {} });
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model, tools: [askBudget] }), appName, sessionStore: store });
}

/**
 * Linear mode, revised as the demo is: plan [A, B, C]; after A: [B, C]; after B: [D, E] (C
 * dropped); after D: [E]; after E the answer. Four plan versions; E waits in version 3 and runs in 4.
 */
export function revisingScenario(store: SessionStore, appName = 'revising-app'): Runner {
  const model = new ScriptedModel({
    id: 'revising-script',
    respond: (request): ScriptedReply => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['Step A', 'Step B', 'Step C'] } });
      if (isReplanner(request)) {
        const done = (messageText(request.messages.at(-1)).match(/Result: /g) ?? []).length;
        const next = [['Step B', 'Step C'], ['Step D', 'Step E'], ['Step E']][done - 1];
        return next ? callTools({ name: 'plan', args: { steps: next } }) : callTools({ name: 'respond', args: { response: 'All done.' } });
      }
      return `finished ${taskOf(request)}`;
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model }), appName, sessionStore: store });
}

/** Text that hides itself: a right-to-left override (`invoice‮fdp.exe` reads `invoiceexe.pdf`) and a zero-width space. */
export const HIDDEN_TEXT = 'invoice\u202Efdp.exe';

const renameFile = tool({
  name: 'rename_file',
  description: 'Renames a file.',
  parameters: z.object({ name: z.string() }),
  execute: ({ name }) => `renamed to ${name} for pay\u200Bpal`,
});

/** Linear mode: one step whose label, tool arguments, tool result and answer carry `HIDDEN_TEXT`. */
export function hiddenTextScenario(store: SessionStore, appName = 'hidden-app'): Runner {
  const model = new ScriptedModel({
    id: 'hidden-script',
    respond: (request): ScriptedReply => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: [`Rename the file to ${HIDDEN_TEXT}`] } });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: `Renamed to ${HIDDEN_TEXT}.` } });
      if (afterTool(request)) return `Done: ${HIDDEN_TEXT}`;
      return callTools({ name: 'rename_file', args: { name: HIDDEN_TEXT } });
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model, tools: [renameFile] }), appName, sessionStore: store });
}

export interface NestedApprovalScenario {
  readonly runner: Runner;
  /** The titles `publish` ran with, in order (once per approved call). */
  readonly published: string[];
}

/**
 * An agent run as a tool: the root agent calls `research` (call `o1`), which runs the researcher
 * in a child session; its `publish` call (`a1`) needs approval. The child's interrupt `a1:approval`
 * is the root's `o1/a1:approval`.
 */
export function nestedApprovalScenario(store: SessionStore, appName = 'nested-app'): NestedApprovalScenario {
  const published: string[] = [];
  const publish = tool({
    name: 'publish',
    description: 'Publishes a post.',
    parameters: z.object({ title: z.string() }),
    needsApproval: true,
    execute: ({ title }) => (published.push(title), `published ${title}`),
  });
  const researcher = new ReActAgent({
    name: 'researcher',
    model: new ScriptedModel({
      id: 'researcher-script',
      respond: (request): ScriptedReply =>
        afterTool(request) ? 'Published the post on tides.' : callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' }),
    }),
    tools: [publish],
  });
  const root = new ReActAgent({
    name: 'root',
    model: new ScriptedModel({
      id: 'root-script',
      respond: (request): ScriptedReply =>
        afterTool(request)
          ? 'The researcher published it.'
          : callTools({ name: 'research', args: { input: 'Write about tides' }, id: 'o1' }),
    }),
    tools: [agentTool(researcher, { name: 'research' })],
  });
  return { runner: new Runner({ agent: root, appName, sessionStore: store }), published };
}

/**
 * Linear mode with plan review (the planner's plan only): plan [Draft the agenda, Book the room];
 * after a rejection whose feedback names "invite", [Draft the agenda, Invite the team]. Each step
 * answers `did <task>`; the replanner responds after the first step. Steps must not be empty (so
 * an edit with an empty step is refused at resume).
 */
export function reviewScenario(store: SessionStore, appName = 'review-app'): Runner {
  const model = new ScriptedModel({
    id: 'review-script',
    respond: (request): ScriptedReply => {
      if (isPlanner(request)) {
        const steps = JSON.stringify(request.messages).toLowerCase().includes('invite')
          ? ['Draft the agenda', 'Invite the team']
          : ['Draft the agenda', 'Book the room'];
        return callTools({ name: 'plan', args: { steps } });
      }
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'The offsite is planned.' } });
      return `did ${taskOf(request)}`;
    },
  });
  const planSchema = z.object({ steps: z.array(z.string().min(1, 'a step cannot be empty: write what to do or remove it')) });
  const agent = createPlanExecuteAgent({ model, planSchema, review: { plan: true, replans: 'never' } });
  return new Runner({ agent, appName, sessionStore: store });
}

/** Graph mode with plan review (the planner's plan only): steps a and b, no dependencies; each answers `did <task>`. */
export function graphReviewScenario(store: SessionStore, appName = 'graph-review-app'): Runner {
  const model = new ScriptedModel({
    id: 'graph-review-script',
    respond: (request): ScriptedReply => {
      if (isPlanner(request))
        return callTools({
          name: 'plan',
          args: {
            steps: [
              { id: 'a', task: 'Read offer A', dependsOn: [] },
              { id: 'b', task: 'Read offer B', dependsOn: [] },
            ],
          },
        });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'Both offers read.' } });
      return `did ${taskOf(request)}`;
    },
  });
  const agent = createPlanExecuteAgent({ model, mode: 'graph', review: { plan: true, replans: 'never' } });
  return new Runner({ agent, appName, sessionStore: store });
}
