/**
 * The three workflow agents: a ParallelAgent looks up two cities at once, then a LoopAgent has a
 * writer draft and a reviewer (a hand-written agent) approve, inside one SequentialAgent.
 * Offline: every model is a ScriptedModel. See docs/workflow-agents.md.
 * Run: pnpm build && npx tsx examples/workflow-agents/main.ts
 */
import {
  type Agent,
  type AgentEvent,
  type InvocationContext,
  LoopAgent,
  ParallelAgent,
  ReActAgent,
  Runner,
  SequentialAgent,
  assistantMessage,
  messageText,
} from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const research = new ParallelAgent({
  name: 'research',
  description: 'Looks up both cities at once.',
  subAgents: [
    new ReActAgent({ name: 'lyon', model: new ScriptedModel({ responses: ['Lyon: 522,000 people.'] }), outputKey: 'lyon' }),
    new ReActAgent({ name: 'porto', model: new ScriptedModel({ responses: ['Porto: 232,000 people.'] }), outputKey: 'porto' }),
  ],
});

/** Approves a draft that names both cities; `exitLoop` ends the enclosing LoopAgent. */
class Reviewer implements Agent {
  readonly name = 'reviewer';
  readonly description = 'Approves a draft that names both cities.';

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const draft = String(ctx.state.draft ?? '');
    const approved = draft.includes('Lyon') && draft.includes('Porto');
    yield ctx.event({
      message: assistantMessage(approved ? 'Approved.' : 'Name both cities.'),
      ...(approved ? { actions: { exitLoop: true } } : {}),
    });
  }
}

const writerModel = new ScriptedModel({
  responses: ['Lyon is bigger.', 'Lyon (522,000 people) is about twice the size of Porto (232,000).'],
});
const review = new LoopAgent({
  name: 'review',
  subAgents: [new ReActAgent({ name: 'writer', model: writerModel, outputKey: 'draft' }), new Reviewer()],
  maxIterations: 3,
  requireExit: true, // running out of passes ends the run `max_iterations` instead of completing
});

const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [research, review] });
const runner = new Runner({ agent: pipeline, appName: 'workflow-example' });
const result = await runner.run({ userId: 'u', sessionId: 'compare', input: 'Compare Lyon and Porto.' }).result();

const session = await runner.sessionStore.get({ appName: 'workflow-example', userId: 'u', id: 'compare' });
for (const event of session?.events ?? []) {
  const cursor = event.actions?.agentState;
  const end = event.actions?.invocationEnd;
  const what = cursor ? `cursor ${JSON.stringify(cursor)}` : end ? `end: ${end.status}` : messageText(event.message);
  console.log(`${event.path.padEnd(24)} ${event.branch ? `[${event.branch}] ` : ''}${what}`);
}
console.log(`\nstatus: ${result.status} · writer drafts: ${writerModel.calls} · answer: ${result.output}`);

const ok =
  result.status === 'completed' && writerModel.calls === 2 && session?.state.lyon !== undefined && session.state.porto !== undefined;
if (!ok) process.exitCode = 1;
