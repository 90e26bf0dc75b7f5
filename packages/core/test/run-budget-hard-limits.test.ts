import { describe, expect, it } from 'vitest';
import { BudgetExceededError, ReActAgent, Runner, tool, userMessage, type ModelRequest } from '@replan/core';
import { RunBudget } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { z } from 'zod';

const request = (chars: number, maxTokens?: number): ModelRequest => ({
  messages: [userMessage('x'.repeat(chars))],
  ...(maxTokens !== undefined ? { settings: { maxTokens } } : {}),
});
/** One call that ends at once: what was sent. */
const call = (b: RunBudget, r: ModelRequest, modelId = 'm'): ModelRequest | undefined => {
  const sent = b.beforeModelCall(modelId, r);
  b.afterModelCall(sent);
  return sent;
};
const refusal = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("hard limits with onExhausted: 'stop' (the default)", () => {
  it('caps the output at what is left after the estimated input; refuses a call whose input alone does not fit', () => {
    const b = new RunBudget({ maxTokens: 1000 });
    b.recordUsage('m', { inputTokens: 700, outputTokens: 100 });
    const asked = request(400); // 100 tokens of input: 100 left for the output
    expect(call(b, asked)).toEqual({ ...asked, settings: { maxTokens: 100 } });
    expect(asked.settings).toBeUndefined(); // the agent's request is not changed
    expect(call(b, request(400, 60))?.settings?.maxTokens).toBe(60); // its own, smaller limit stays
    expect(call(b, request(400, 5000))?.settings?.maxTokens).toBe(100);
    expect(b.modelCalls).toBe(3);
    const refused = refusal(() => call(b, request(800))); // 200 of input > 200 left − 0 for output
    expect(refused).toBeInstanceOf(BudgetExceededError);
    expect(refused).toMatchObject({ budget: 'maxTokens', limit: 1000, used: 800, forecast: 200 });
    expect((refused as Error).message).toMatch(/resume it with a higher limit/);
    expect(b.modelCalls).toBe(3); // not counted: not made
  });

  it('sends no cap above 4,096 tokens on a request without its own (servers refuse a cap over the model’s output limit)', () => {
    const b = new RunBudget({ maxTokens: 100_000 });
    const asked = request(400);
    expect(call(b, asked)).toEqual(asked); // no cap: a copy, as sent
    expect(call(b, request(400, 200_000))?.settings?.maxTokens).toBe(99_900);
    const near = new RunBudget({ maxTokens: 4196 });
    expect(call(near, asked)?.settings?.maxTokens).toBe(4096);
  });

  it('maxCost: the output is capped at the tokens the money left buys; an input that costs more than is left is refused', () => {
    const prices = { m: { inputPerMillion: 1, outputPerMillion: 10 } };
    const b = new RunBudget({ maxCost: 0.01, prices });
    b.recordUsage('m', { inputTokens: 4000, outputTokens: 0 }); // $0.004
    // $0.006 left, the input (1000 tokens) costs $0.001: $0.005 of output at $10 per million = 500 tokens
    expect(call(b, request(4000))?.settings?.maxTokens).toBe(500);
    expect(call(b, request(4000), 'other')?.settings).toBeUndefined(); // an unpriced model costs nothing
    const refused = refusal(() => call(b, request(28_000))); // 7000 tokens: $0.007 > $0.006
    expect(refused).toMatchObject({ budget: 'maxCost', limit: 0.01, forecast: 0.007 });
  });

  it('calls in flight (parallel steps) hold their input and output cap until they end', async () => {
    const b = new RunBudget({ maxTokens: 1000 });
    const first = b.beforeModelCall('m', request(400)); // 100 of input, 900 for its output
    expect(first?.settings?.maxTokens).toBe(900);
    // A second call while the first runs: nothing is left that the first may not spend.
    expect(refusal(() => b.beforeModelCall('m', request(400)))).toMatchObject({ budget: 'maxTokens', used: 0, forecast: 100 });
    // That refusal was only for what the first holds: whenRoom says to wait for it; a refusal that stands says nothing.
    const held = refusal(() => b.beforeModelCall('m', request(400)));
    const room = b.whenRoom(held);
    expect(room).toBeInstanceOf(Promise);
    expect(b.whenRoom(new BudgetExceededError('maxTokens', 1000, 1000))).toBeUndefined();
    let freed = false;
    void room?.then(() => {
      freed = true;
    });
    await Promise.resolve();
    expect(freed).toBe(false);
    b.afterModelCall(first);
    await room;
    expect(freed).toBe(true);
    b.recordUsage('m', { inputTokens: 100, outputTokens: 200 });
    const second = b.beforeModelCall('m', request(400, 150)); // its own limit: it holds 100 + 150
    expect(second?.settings?.maxTokens).toBe(150);
    const third = b.beforeModelCall('m', request(400)); // 1000 − 300 used − 250 held − 100 of input
    expect(third?.settings?.maxTokens).toBe(350);
    b.afterModelCall(second);
    b.afterModelCall(third);
    expect(call(b, request(400))?.settings?.maxTokens).toBe(600); // both released, nothing recorded
  });

  it("'answer': a work call's output is capped above the reserve; the answer may spend the reserve", () => {
    const b = new RunBudget({ maxTokens: 1000, onExhausted: 'answer', reserve: { tokens: 300 } });
    expect(call(b, request(400))?.settings?.maxTokens).toBe(600); // 1000 − 300 kept − 100 of input
    b.recordUsage('m', { inputTokens: 100, outputTokens: 500 });
    b.beginAnswer();
    expect(call(b, request(400))?.settings?.maxTokens).toBe(300); // 1000 − 600 used − 100 of input
  });

  it('a ReAct run never passes maxCost when the model counts as the budget estimates', async () => {
    const note = tool({ name: 'note', description: 'n', parameters: z.object({ text: z.string() }), execute: () => 'ok' });
    const model = new ScriptedModel({
      id: 'm1',
      respond: () => callTools({ name: 'note', args: { text: 'y'.repeat(2000) } }),
      usage: 'measured',
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [note], maxIterations: 50 }), appName: 'x' });
    const prices = { m1: { inputPerMillion: 1, outputPerMillion: 20 } }; // output dear: an uncapped answer crossed by its output
    for (const maxCost of [0.02, 0.05]) {
      const r = await runner.run({ userId: 'u', input: 'go', limits: { maxCost, prices } }).result();
      expect(r.status).toBe('budget_exceeded');
      expect(r.cost).toBeLessThanOrEqual(maxCost + 1e-12);
      expect(r.cost).toBeGreaterThan(maxCost * 0.7);
      expect(r.error).toMatchObject({ budget: 'maxCost', limit: maxCost });
    }
  });

  it('a ReAct run never passes maxTokens when the model counts as the budget estimates', async () => {
    // Each answer is a tool call with ~500 tokens of arguments: a call that crossed the limit used to complete.
    const note = tool({ name: 'note', description: 'n', parameters: z.object({ text: z.string() }), execute: () => 'ok' });
    const model = new ScriptedModel({ respond: () => callTools({ name: 'note', args: { text: 'y'.repeat(2000) } }), usage: 'measured' });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [note], maxIterations: 50 }), appName: 'x' });
    for (const maxTokens of [1500, 4000, 9000]) {
      const r = await runner.run({ userId: 'u', input: 'go', limits: { maxTokens } }).result();
      expect(r.status).toBe('budget_exceeded');
      const spent = r.usage.inputTokens + r.usage.outputTokens;
      expect(spent).toBeLessThanOrEqual(maxTokens); // overshoot 0
      expect(spent).toBeGreaterThan(maxTokens * 0.7); // and the budget was used, not stopped early
      expect(r.error).toMatchObject({ budget: 'maxTokens', limit: maxTokens });
    }
    // Some calls were made with less room than the ~500 tokens the model writes: their output was capped.
    const binding = model.requests.filter((r) => (r.settings?.maxTokens ?? Number.POSITIVE_INFINITY) < 500);
    expect(binding.length).toBeGreaterThan(0);
    for (const r of binding) expect(r.settings?.maxTokens).toBeGreaterThan(0);
  });
});
