import { describe, expect, it } from 'vitest';
import { ConfigurationError, messageText, Runner, type Message } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { createPlanExecuteAgent, createPlanner, PlanningError, SessionKeys } from '@replan/planexecute';
import { collect, harness, kindsOf, planCall, respondCall } from './support.js';

const badJsonPlan: Message = {
  role: 'assistant',
  content: [{ type: 'tool_call', id: 'bad1', name: 'plan', args: {}, rawArgs: '{"steps": [', argsError: 'Unexpected end of JSON input' }],
};

describe('planner repairs', () => {
  const faults: [string, Message | string, RegExp][] = [
    ['calls no tool', 'I think we should first look things up.', /must call the "plan" tool, but it called no tool/],
    ['calls another tool', callTools({ name: 'search', args: { q: 'x' } }), /must call the "plan" tool, but it called "search"/],
    ['sends JSON that does not parse', badJsonPlan, /not valid JSON \(Unexpected end of JSON input\)/],
    ['sends a plan that fails the schema', callTools({ name: 'plan', args: { steps: 'one, two' } }), /steps: .*expected array/i],
  ];

  for (const [name, faulty, problem] of faults)
    it(`sends the error back when the model ${name}, then uses the repaired plan`, async () => {
      const h = harness({
        planner: [faulty, planCall(['only step'])],
        executor: ['done'],
        replanner: [respondCall('ok')],
      });
      const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
      expect(result.status).toBe('completed');
      expect(h.planner.calls).toBe(2);
      // the repair request: the faulty answer, (error results for its tool calls), then a user-role message with the error
      const repair = h.planner.requests[1]?.messages ?? [];
      const base = h.planner.requests[0]?.messages.length ?? 0;
      expect(repair.slice(0, base)).toEqual(h.planner.requests[0]?.messages);
      expect(repair[base]).toEqual(typeof faulty === 'string' ? { role: 'assistant', content: [{ type: 'text', text: faulty }] } : faulty);
      const last = repair.at(-1);
      expect(last?.role).toBe('user');
      expect(messageText(last)).toMatch(problem);
      if (typeof faulty !== 'string') expect(repair[base + 1]?.role).toBe('tool');
      expect(kindsOf(events).filter((k) => k.kind === 'repair').length).toBeGreaterThanOrEqual(2);
      expect((await h.state(result.sessionId))[SessionKeys.Plan]).toEqual({ steps: ['only step'] });
    });

  it('fails with a typed PlanningError carrying the output after 2 repairs', async () => {
    const h = harness({ planner: ['no plan', 'still no plan', 'never a plan'] });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    expect(h.planner.calls).toBe(3);
    expect(result.error).toBeInstanceOf(PlanningError);
    const error = result.error as PlanningError;
    expect(messageText(error.output)).toBe('never a plan');
    expect(error.attempts).toBe(3);
    expect(error.agentName).toBe('planner');
    expect(error.message).toMatch(/after 3 attempts/);
    expect(events.at(-1)?.error?.name).toBe('PlanningError');
    expect((await h.state(result.sessionId))[SessionKeys.Plan]).toBeUndefined();
  });

  it('reads the plan from a JSON answer in response-format mode, repairing bad JSON', async () => {
    const model = new ScriptedModel({ responses: ['{"steps": [', '```json\n{"steps": ["a"]}\n```', 'a done', respondCall('fine')] });
    const agent = createPlanExecuteAgent({ model, structuredOutput: 'response-format' });
    const { result } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(model.requests[0]?.responseFormat?.name).toBe('plan');
    expect(model.requests[0]?.tools).toBeUndefined();
    expect(messageText(model.requests[1]?.messages.at(-1))).toMatch(/not valid JSON/);
  });

  it('rejects a plan schema without a steps array at construction', () => {
    const model = new ScriptedModel();
    expect(() => createPlanner({ model, planSchema: z.object({ tasks: z.array(z.string()) }) })).toThrow(ConfigurationError);
    expect(() => createPlanner({ model: undefined as never })).toThrow(/needs a model/);
  });
});

describe('replanner answers', () => {
  it('lets respond win over plan when both are called in one answer', async () => {
    const h = harness({
      planner: [planCall(['s1'])],
      executor: ['r1'],
      replanner: [callTools({ name: 'plan', args: { steps: ['more'] } }, { name: 'respond', args: { response: 'final' } })],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('final');
    expect(h.executor.calls).toBe(1);
    expect((await h.state(result.sessionId))[SessionKeys.Plan]).toEqual({ steps: ['s1'] });
  });

  it('uses the first plan when several plan calls come in one answer', async () => {
    const h = harness({
      planner: [planCall(['s1'])],
      executor: ['r1', 'r2'],
      replanner: [
        callTools({ name: 'plan', args: { steps: ['first'] } }, { name: 'plan', args: { steps: ['second'] } }),
        respondCall('end'),
      ],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(messageText(h.executor.requests[1]?.messages.at(-1))).toContain('## YOUR STEP\nfirst');
  });

  it('repairs a replanner answer that calls neither tool, without appending the step twice', async () => {
    const h = harness({
      planner: [planCall(['s1'])],
      executor: ['r1'],
      replanner: ['Looks done to me.', respondCall('done')],
    });
    const { result, events } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.replanner.calls).toBe(2);
    expect(messageText(h.replanner.requests[1]?.messages.at(-1))).toMatch(/must call "respond" or "plan", but it called no tool/);
    expect((await h.state(result.sessionId))[SessionKeys.ExecutedSteps]).toEqual([{ step: 's1', result: 'r1' }]);
    expect(kindsOf(events).filter((k) => k.kind === 'answer')).toHaveLength(1);
  });

  it('carries the respond arguments as the structured answer', async () => {
    const h = harness({ planner: [planCall([])], replanner: [respondCall('nothing to do')] });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.structured).toEqual({ response: 'nothing to do' });
    expect(events.find((e) => e.actions?.final)?.actions?.final).toEqual({
      text: 'nothing to do',
      structured: { response: 'nothing to do' },
    });
  });
});
