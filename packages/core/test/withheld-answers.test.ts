import { describe, expect, it } from 'vitest';
import {
  type Agent,
  type AgentEvent,
  assistantMessage,
  type Guardrail,
  guardrails,
  InMemorySessionStore,
  messageText,
  ReActAgent,
  Runner,
} from '@replan/core';
import { AnswerGate, guardrailBlockOf, guardrailBlockText, runAgent, withheldAnswers } from '@replan/core/agent-kit';
import { callTools, ScriptedModel, reply } from '@replan/core/testing';
import { tool } from '@replan/core';
import { z } from 'zod';

const SECRET = 'the vault code is XYZZY';
const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

function setup(answer: string, output: Guardrail[] = [noCodes]) {
  const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found it' });
  const thinking = callTools({ name: 'lookup', args: {} });
  const intermediate = { ...thinking, content: [{ type: 'text' as const, text: 'Let me look that up.' }, ...thinking.content] };
  const model = new ScriptedModel({ responses: [intermediate, reply(answer)] });
  const store = new InMemorySessionStore();
  const agent = new ReActAgent({ name: 'assistant', model, tools: [lookup], middleware: [guardrails({ output })] });
  return { store, runner: new Runner({ agent, appName: 'g', sessionStore: store }) };
}

async function streamed(answer: string, output?: Guardrail[]) {
  const h = setup(answer, output);
  const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'what is the code?', stream: true });
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  const stored = (await h.store.get({ appName: 'g', userId: 'u', id: 's' }))?.events ?? [];
  return { events, stored, result: await run.result() };
}

const deltaText = (events: readonly AgentEvent[]) =>
  events
    .filter((e) => e.partial)
    .map((e) => messageText(e.message))
    .join('');

describe('a blocked answer is withheld from every reader', () => {
  it('with stream: true the answer text is not streamed before the output guardrails decide; intermediate text still streams', async () => {
    const { events, stored, result } = await streamed(SECRET);
    expect(result.status).toBe('blocked');
    expect(deltaText(events)).toBe('Let me look that up.');
    const answer = stored.find((e) => e.actions?.final);
    expect(answer?.message && messageText(answer.message)).toBe(SECRET); // kept in the log for audit
    const withheld = withheldAnswers(stored);
    expect(withheld.get(answer?.id ?? '')).toEqual({ guardrail: { name: 'no_codes', stage: 'output', reason: 'leaks a code' } });
    const end = stored.at(-1) as AgentEvent;
    expect(guardrailBlockText(guardrailBlockOf(end) ?? { name: '?', stage: 'input' })).toBe(
      'Blocked by the output guardrail "no_codes": leaks a code',
    );
  });

  it('an answer that passes is not withheld; its text comes whole in the stored answer', async () => {
    const { events, stored, result } = await streamed('the weather is fine');
    expect(result.output).toBe('the weather is fine');
    expect(deltaText(events)).toBe('Let me look that up.');
    expect(withheldAnswers(stored).size).toBe(0);
  });

  it('AnswerGate holds a live answer until its invocation ends, and withholds it when blocked', async () => {
    const { stored } = await streamed(SECRET);
    const gate = new AnswerGate();
    const shown: string[] = [];
    for (const event of stored) {
      for (const { item, withheld } of gate.push(event)) {
        if (withheld) shown.push(`withheld ${withheld.guardrail?.name}`);
        else if (item.message) shown.push(messageText(item.message));
      }
    }
    expect(shown.join('\n')).not.toContain('XYZZY');
    expect(shown).toContain('withheld no_codes');
  });

  it('a marked answer whose invocation has not ended (the guardrails are still deciding) is withheld', async () => {
    const { stored } = await streamed(SECRET);
    const answerAt = stored.findIndex((e) => e.actions?.final);
    const sofar = stored.slice(0, answerAt + 1);
    expect(withheldAnswers(sofar).get(stored[answerAt]?.id ?? '')).toEqual({});
  });

  it('an unmarked answer (no output guardrails) followed by more work is let through at once', () => {
    const base = { invocationId: 'i', timestamp: 0 };
    const gate = new AnswerGate();
    const answer: AgentEvent = { ...base, id: 'a', author: 'first', path: 'seq/first', actions: { final: { text: 'one' } } };
    expect(gate.push(answer)).toEqual([]);
    const next: AgentEvent = {
      ...base,
      id: 'b',
      author: 'second',
      path: 'seq/second',
      partial: true,
      message: { role: 'assistant', content: [] },
    };
    expect(gate.push(next)).toEqual([{ item: answer }, { item: next }]);
  });
});

describe('work under a label (ctx.withLabel) is not the run answer', () => {
  it("streams a labelled sub-agent's answer deltas at once, marked with the label, while the root's answer waits for the guardrails", async () => {
    const worker = new ReActAgent({ name: 'worker', model: new ScriptedModel({ responses: [reply('step work done')] }) });
    const root: Agent = {
      name: 'root',
      description: 'runs its worker on one labelled piece of work, then answers',
      guardrails: { output: [noCodes] },
      async *run(ctx) {
        yield* runAgent(ctx.child(worker).withLabel({ id: 's1', text: 'the step' }));
        yield ctx.event({ message: assistantMessage(SECRET), actions: { final: { text: SECRET } } });
      },
    };
    const runner = new Runner({ agent: root, appName: 'g' });
    const run = runner.run({ userId: 'u', input: 'go', stream: true });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect((await run.result()).status).toBe('blocked');
    const deltas = events.filter((e) => e.partial);
    expect(deltaText(deltas)).toBe('step work done');
    expect(deltas.every((e) => e.meta?.label === 's1')).toBe(true);
  });
});
