import { describe, expect, it } from 'vitest';
import { type Guardrails, GuardrailError, InMemorySessionStore, Runner } from '@replan/core';
import { reply, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { planCall, respondCall } from './support.js';

const user = { userId: 'u' };

/** A plan–execute agent with one scripted model per part: plan one step, run it, answer `answer`. */
function planExecute(guardrails: Guardrails, answer = 'the answer') {
  const planner = new ScriptedModel({ id: 'p', responses: [planCall(['look it up'])] });
  const executor = new ScriptedModel({ id: 'x', responses: [reply('found it')] });
  const replanner = new ScriptedModel({ id: 'r', responses: [respondCall(answer)] });
  const agent = createPlanExecuteAgent({
    planner: createPlanner({ model: planner }),
    executor: createExecutor({ model: executor }),
    replanner: createReplanner({ model: replanner }),
    guardrails,
  });
  const store = new InMemorySessionStore();
  const runner = new Runner({ agent, appName: 'g', sessionStore: store });
  const calls = () => planner.calls + executor.calls + replanner.calls;
  return { runner, calls, store };
}

function capture() {
  let text = '';
  const write = (t: string) => {
    text += t;
  };
  return { out: { write }, text: () => text };
}

describe('guardrails on a plan–execute agent', () => {
  it('an input tripwire blocks before the planner is called; renderRun shows who blocked it and why', async () => {
    const h = planExecute({
      input: [{ name: 'topic', check: (text) => ({ tripwire: /weapons/.test(text), reason: 'off-topic request' }) }],
    });
    const { out, text } = capture();
    const result = await renderRun(h.runner.run({ ...user, input: 'build weapons' }), { out });
    expect(result.status).toBe('blocked');
    expect(result.guardrail).toEqual({ name: 'topic', stage: 'input', reason: 'off-topic request' });
    expect(h.calls()).toBe(0);
    expect(text()).toContain('└─ Blocked by the input guardrail "topic": off-topic request');
    expect(text()).toContain('status blocked');
  });

  it('an output tripwire sees the final answer and withholds it', async () => {
    const seen: string[] = [];
    const h = planExecute(
      {
        output: [
          async (answer) => {
            seen.push(answer);
            return { tripwire: answer.includes('555-'), reason: 'contains a phone number' };
          },
        ],
      },
      'call 555-0100',
    );
    const result = await h.runner.run({ ...user, input: 'who do I call?' }).result();
    expect(seen).toEqual(['call 555-0100']);
    expect(result.status).toBe('blocked');
    expect(result.output).toBeUndefined();
    expect(result.structured).toBeUndefined();
    expect(result.guardrail?.stage).toBe('output');
  });

  it('renderRun never prints an answer an output guardrail blocked, streamed or not: it prints the block', async () => {
    for (const stream of [false, true]) {
      const h = planExecute(
        { output: [{ name: 'no_phones', check: (answer) => ({ tripwire: answer.includes('555-'), reason: 'a phone number' }) }] },
        'call 555-0100',
      );
      const { out, text } = capture();
      const result = await renderRun(h.runner.run({ ...user, input: 'who do I call?', stream }), {
        out: { ...out, isTTY: stream },
        color: false,
      });
      expect(result.status).toBe('blocked');
      expect(text()).not.toContain('555-');
      expect(text()).toContain('Blocked by the output guardrail "no_phones": a phone number');
    }
  });

  it('a throwing guardrail fails the run with a GuardrailError naming it', async () => {
    const h = planExecute({
      output: [
        {
          name: 'judge',
          check: () => {
            throw new Error('judge model timed out');
          },
        },
      ],
    });
    const result = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(GuardrailError);
    expect(result.error?.message).toContain('"judge"');
    expect(result.output).toBeUndefined();
  });

  it('a blocked run stays blocked on resume, with no model call', async () => {
    const h = planExecute({ output: [() => ({ tripwire: true, reason: 'never' })] });
    const first = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(first.status).toBe('blocked');
    const before = h.calls();
    const again = await h.runner.resume({ ...user, sessionId: first.sessionId }).result();
    expect(again.status).toBe('blocked');
    expect(again.guardrail?.reason).toBe('never');
    expect(h.calls()).toBe(before);
  });
});
