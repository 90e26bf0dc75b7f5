import { describe, expect, it } from 'vitest';
import { messageText, Runner, type AgentEvent } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import {
  createPlanExecuteAgent,
  fillTemplate,
  linearMode,
  planExecuteEventKind,
  PlanTool,
  RespondTool,
  SessionKeys,
  type PlanExecuteEventKind,
} from '@replan/planexecute';
import { collect, harness, planCall, respondCall } from './support.js';

describe('streaming', () => {
  it('classifies plan, step progress, revised plan and answer while the run streams', async () => {
    const h = harness({
      planner: [planCall(['write a long first paragraph', 'second'])],
      executor: ['This first paragraph is long enough to stream.', 'Second part.'],
      replanner: [planCall(['second']), respondCall('Both parts are written.')],
    });
    const seen: PlanExecuteEventKind[] = [];
    const partialEvents: AgentEvent[] = [];
    let executorCallsWhenPlanSeen = -1;
    for await (const event of h.runner.run({ userId: 'u', input: 'write', stream: true })) {
      const kind = planExecuteEventKind(event);
      if (!kind) continue;
      if (kind.kind === 'plan') executorCallsWhenPlanSeen = h.executor.calls;
      if (event.partial) partialEvents.push(event);
      seen.push(kind);
    }
    // the plan arrives before the first step has finished (events flow as they happen)
    expect(executorCallsWhenPlanSeen).toBeLessThanOrEqual(1);
    const compact = seen.map((k) => (k.kind === 'step-progress' ? `progress${k.partial ? '~' : ''}:${k.stepNumber}` : k.kind));
    const firstResult = compact.indexOf('step-result');
    expect(compact[0]).toBe('plan');
    expect(compact.slice(1, firstResult).every((k) => k === 'progress~:1')).toBe(true);
    expect(firstResult).toBeGreaterThan(2); // several streamed deltas for step 1
    expect(compact.filter((k) => !k.startsWith('progress'))).toEqual(['plan', 'step-result', 'revised-plan', 'step-result', 'answer']);
    expect(compact).toContain('progress~:2');
    // streamed deltas carry the step and rebuild its text; they are never stored
    const step1 = partialEvents.filter((e) => e.meta?.stepNumber === 1);
    expect(step1.map((e) => messageText(e.message)).join('')).toBe('This first paragraph is long enough to stream.');
    expect(step1.every((e) => e.meta?.step === 'write a long first paragraph')).toBe(true);
    const sessionId = (await h.runner.sessionStore.list({ appName: 'pe-test', userId: 'u' })).sessions[0]?.id ?? '';
    expect((await h.events(sessionId)).some((e) => e.partial)).toBe(false);
  });

  it('tags streamed planner output as planning in response-format mode', async () => {
    const model = new ScriptedModel({ responses: ['{"steps": []}', respondCall('nothing')] });
    const agent = createPlanExecuteAgent({ model, structuredOutput: 'response-format' });
    const { events } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'x', stream: true }));
    const planning = events.filter((e) => planExecuteEventKind(e)?.kind === 'planning');
    expect(planning.length).toBeGreaterThan(0);
    expect(planning.every((e) => e.partial && e.author === 'planner')).toBe(true);
  });
});

describe('prompts and user input', () => {
  it('keeps the user messages with their roles, and earlier answers, in every prompt', async () => {
    const h = harness({
      planner: [planCall(['s1']), planCall(['s2'])],
      executor: ['r1', 'r2'],
      replanner: [respondCall('first answer'), respondCall('second answer')],
    });
    const first = await collect(h.runner.run({ userId: 'u', input: 'revenue for 2024?' }));
    const second = await collect(h.runner.run({ userId: 'u', sessionId: first.result.sessionId, input: 'and for 2023?' }));
    expect(second.result.output).toBe('second answer');
    const conversation = [
      { role: 'user', content: [{ type: 'text', text: 'revenue for 2024?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'and for 2023?' }] },
    ];
    for (const request of [h.planner.requests[1], h.executor.requests[1], h.replanner.requests[1]]) {
      expect(request?.messages[0]?.role).toBe('system');
      expect(request?.messages.slice(1, 4)).toEqual(conversation);
    }
    const state = await h.state(second.result.sessionId);
    expect(state[SessionKeys.UserInput]).toEqual(conversation);
    // a new objective starts with no executed steps
    expect(state[SessionKeys.ExecutedSteps]).toEqual([{ step: 's2', result: 'r2' }]);
  });

  it('exports templates that name their inputs and fill them', () => {
    expect(linearMode.prompts.planner.inputs).toEqual(['objective', 'tools']);
    expect(linearMode.prompts.executor.inputs).toEqual(['objective', 'executedSteps', 'plan', 'step']);
    expect(linearMode.prompts.replanner.inputs).toContain('executedSteps');
    expect(fillTemplate(linearMode.prompts.executor.task ?? '', { step: 'do X' })).toContain('## YOUR STEP\ndo X');
    expect(fillTemplate('{a} {b}', { a: '1' })).toBe('1 {b}');
    expect(PlanTool.name).toBe('plan');
    expect(PlanTool.parameters).toMatchObject({ type: 'object', properties: { steps: { type: 'array' } }, required: ['steps'] });
    expect(RespondTool.parameters).toMatchObject({ properties: { response: { type: 'string' } }, required: ['response'] });
  });

  it('forces the plan tool for the planner and offers plan and respond to the replanner', async () => {
    const h = harness({ planner: [planCall([])], replanner: [respondCall('ok')] });
    await collect(h.runner.run({ userId: 'u', input: 'x' }));
    expect(h.planner.requests[0]?.toolChoice).toEqual({ name: 'plan' });
    expect(h.planner.requests[0]?.tools?.map((t) => t.name)).toEqual(['plan']);
    expect(h.replanner.requests[0]?.toolChoice).toBe('required');
    expect(h.replanner.requests[0]?.tools?.map((t) => t.name)).toEqual(['plan', 'respond']);
  });

  it('exports, from the package entry, the very plan and respond tool specs the default planner and replanner send', async () => {
    const h = harness({ planner: [planCall([])], replanner: [respondCall('ok')] });
    await collect(h.runner.run({ userId: 'u', input: 'x' }));
    expect(h.planner.requests[0]?.tools).toEqual([PlanTool]);
    expect(h.replanner.requests[0]?.tools).toEqual([PlanTool, RespondTool]);
  });
});
