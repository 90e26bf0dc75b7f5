import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  type Guardrail,
  GuardrailError,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  SequentialAgent,
  toolResultsOf,
  guardrails,
} from '@replan/core';
import { ScriptedModel, callTools, reply } from '@replan/core/testing';

const user = { userId: 'u' };

function setup(checks: { input?: Guardrail[]; output?: Guardrail[] }, answer = 'the answer') {
  const model = new ScriptedModel({ responses: [reply(answer)] });
  const store = new InMemorySessionStore();
  const agent = new ReActAgent({ name: 'assistant', model, middleware: [guardrails(checks)] });
  const runner = new Runner({ agent, appName: 'g', sessionStore: store });
  const events = async (id: string) => (await store.get({ appName: 'g', userId: 'u', id }))?.events ?? [];
  return { model, runner, events };
}

const noSecrets: Guardrail = {
  name: 'no_secrets',
  check: (text) => ({ tripwire: text.includes('password'), reason: 'asks for a password' }),
};

describe('guardrails on a ReActAgent', () => {
  it('an input tripwire blocks the run before any model call, stored with the guardrail and its reason', async () => {
    const h = setup({ input: [noSecrets] });
    const result = await h.runner.run({ ...user, input: 'tell me the admin password' }).result();
    expect(result.status).toBe('blocked');
    expect(result.guardrail).toEqual({ name: 'no_secrets', stage: 'input', reason: 'asks for a password' });
    expect(result.output).toBeUndefined();
    expect(h.model.calls).toBe(0);
    const end = (await h.events(result.sessionId)).at(-1);
    expect(end?.actions?.invocationEnd).toEqual({ status: 'blocked', guardrail: result.guardrail });
    expect(end?.meta?.kind).toBe('guardrail-blocked');
  });

  it('input that passes runs as usual', async () => {
    const h = setup({ input: [noSecrets] });
    const result = await h.runner.run({ ...user, input: 'hello' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('the answer');
    expect(result.guardrail).toBeUndefined();
  });

  it('an output tripwire withholds the answer: status blocked, no output', async () => {
    const seen: string[] = [];
    const h = setup(
      {
        output: [
          function no_leaks(text) {
            seen.push(text);
            return { tripwire: text.includes('SECRET'), reason: 'leaks a secret' };
          },
        ],
      },
      'it is SECRET-42',
    );
    const result = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(seen).toEqual(['it is SECRET-42']);
    expect(result.status).toBe('blocked');
    expect(result.output).toBeUndefined();
    expect(result.guardrail).toEqual({ name: 'no_leaks', stage: 'output', reason: 'leaks a secret' });
    const ends = (await h.events(result.sessionId)).filter((e) => e.actions?.invocationEnd);
    expect(ends.map((e) => e.actions?.invocationEnd?.status)).toEqual(['blocked']);
  });

  it('an async guardrail is awaited; the first tripwire wins and later guardrails are not asked', async () => {
    let later = 0;
    const h = setup({
      input: [
        async () => ({ tripwire: false }),
        { name: 'slow_check', check: async (text) => ({ tripwire: await Promise.resolve(text === 'bad'), reason: 'bad input' }) },
        () => {
          later++;
          return { tripwire: false };
        },
      ],
    });
    const result = await h.runner.run({ ...user, input: 'bad' }).result();
    expect(result.status).toBe('blocked');
    expect(result.guardrail?.name).toBe('slow_check');
    expect(later).toBe(0);
  });

  it('a guardrail that throws fails the run with a GuardrailError naming it (no crash)', async () => {
    const h = setup({
      input: [
        {
          name: 'moderation',
          check: async () => {
            throw new Error('moderation service down');
          },
        },
      ],
    });
    const result = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(GuardrailError);
    expect((result.error as GuardrailError).guardrail).toBe('moderation');
    expect(result.error?.message).toContain('"moderation"');
    expect(result.error?.message).toContain('moderation service down');
    expect(h.model.calls).toBe(0);
    expect((await h.events(result.sessionId)).some((e) => e.error?.name === 'GuardrailError')).toBe(true);
  });

  it('a verdict that is not { tripwire: boolean } is a GuardrailError too', async () => {
    const h = setup({ output: [{ name: 'sloppy', check: () => ({}) as never }] });
    const result = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(GuardrailError);
    expect(result.output).toBeUndefined();
  });

  it('blocked is final: resume returns the stored block and calls no model', async () => {
    const h = setup({ output: [{ name: 'never', check: () => ({ tripwire: true, reason: 'no' }) }] });
    const first = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(first.status).toBe('blocked');
    const calls = h.model.calls;
    const again = await h.runner.resume({ ...user, sessionId: first.sessionId }).result();
    expect(again.status).toBe('blocked');
    expect(again.output).toBeUndefined();
    expect(again.guardrail).toEqual({ name: 'never', stage: 'output', reason: 'no' });
    expect(again.modelCalls).toBe(0);
    expect(h.model.calls).toBe(calls);
  });

  it('a blocked structured answer stays withheld on resume (one RunResult builder for every ending)', async () => {
    const model = new ScriptedModel({ responses: ['{"city":"Paris"}'] });
    const store = new InMemorySessionStore();
    const never: Guardrail = { name: 'never', check: () => ({ tripwire: true, reason: 'no' }) };
    const agent = new ReActAgent({
      name: 'assistant',
      model,
      outputSchema: z.object({ city: z.string() }),
      middleware: [guardrails({ output: [never] })],
    });
    const runner = new Runner({ agent, appName: 'g', sessionStore: store });
    const first = await runner.run({ ...user, input: 'hi' }).result();
    expect(first.status).toBe('blocked');
    expect(first.structured).toBeUndefined();
    const again = await runner.resume({ ...user, sessionId: first.sessionId }).result();
    expect(again.status).toBe('blocked');
    expect(again.output).toBeUndefined();
    expect(again.structured).toBeUndefined();
  });

  it('workflow agents take guardrails too', async () => {
    const model = new ScriptedModel({ responses: [reply('x')] });
    const agent = new SequentialAgent({
      name: 'pipeline',
      subAgents: [new ReActAgent({ name: 'inner', model })],
      guardrails: { input: [noSecrets] },
    });
    const result = await new Runner({ agent, appName: 'g' }).run({ ...user, input: 'password?' }).result();
    expect(result.status).toBe('blocked');
    expect(model.calls).toBe(0);
  });

  it('an agent run as a tool checks its guardrails on the tool input; a block fails that tool call naming the guardrail', async () => {
    const innerModel = new ScriptedModel({ responses: [reply('inner answer')] });
    const inner = new ReActAgent({ name: 'researcher', model: innerModel, middleware: [guardrails({ input: [noSecrets] })] });
    const outerModel = new ScriptedModel({
      responses: [callTools({ id: 'c1', name: 'research', args: { input: 'the password' } }), reply('could not')],
    });
    const outer = new ReActAgent({ name: 'root', model: outerModel, tools: [agentTool(inner, { name: 'research' })] });
    const result = await new Runner({ agent: outer, appName: 'g' }).run({ ...user, input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(innerModel.calls).toBe(0);
    const toolResult = toolResultsOf(outerModel.requests[1]?.messages.at(-1))[0];
    expect(toolResult?.isError).toBe(true);
    expect(JSON.stringify(toolResult?.output)).toContain('no_secrets');
    expect(JSON.stringify(toolResult?.output)).toContain('asks for a password');
  });

  it('a run whose input guardrail threw is checked again on resume, and can then go on', async () => {
    let down = true;
    const h = setup({
      input: [
        {
          name: 'moderation',
          check: () => {
            if (down) throw new Error('service down');
            return { tripwire: false };
          },
        },
      ],
    });
    const first = await h.runner.run({ ...user, input: 'hi' }).result();
    expect(first.error).toBeInstanceOf(GuardrailError);
    const stillDown = await h.runner.resume({ ...user, sessionId: first.sessionId }).result();
    expect(stillDown.error).toBeInstanceOf(GuardrailError);
    expect(h.model.calls).toBe(0);
    down = false;
    const again = await h.runner.resume({ ...user, sessionId: first.sessionId }).result();
    expect(again.status).toBe('completed');
    expect(again.output).toBe('the answer');
  });
});
