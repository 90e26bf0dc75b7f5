import { afterEach, describe, expect, it, vi } from 'vitest';
import { BudgetExceededError, ConfigurationError, userMessage, type ModelRequest } from '@replan/core';
import { RunBudget } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';

const request = (chars: number, maxTokens?: number): ModelRequest => ({
  messages: [userMessage('x'.repeat(chars))],
  ...(maxTokens !== undefined ? { settings: { maxTokens } } : {}),
});
const site = (plan: boolean, latencyMs = 10) => ({ path: 'a', latencyMs, ...(plan ? { plan } : {}) });

afterEach(() => {
  vi.useRealTimers();
});

describe("RunBudget with onExhausted: 'answer'", () => {
  it('views only the limits that are set; the reserve only with answer', () => {
    expect(new RunBudget({}).view()).toBeUndefined();
    const stop = new RunBudget({ maxTokens: 1000 });
    stop.recordUsage('m', { inputTokens: 100, outputTokens: 20 });
    expect(stop.view()).toEqual({ limits: { tokens: 1000 }, used: { tokens: 120 }, left: { tokens: 880 }, onExhausted: 'stop' });
    const answer = new RunBudget({ maxTokens: 1000, maxModelCalls: 5, onExhausted: 'answer' });
    expect(answer.view()?.reserve).toEqual({ tokens: 0, modelCalls: 1 });
  });

  it('sizes the default reserve from the largest planner or replanner call (1.5×), not from step calls', () => {
    const b = new RunBudget({ maxTokens: 10_000, onExhausted: 'answer' });
    b.recordUsage('m', { inputTokens: 3000, outputTokens: 0 }, site(false)); // a step's call
    expect(b.reserve().tokens).toBe(0);
    b.recordUsage('m', { inputTokens: 600, outputTokens: 200 }, site(true));
    expect(b.reserve().tokens).toBe(1200);
    expect(new RunBudget({ maxTokens: 10_000, onExhausted: 'answer', reserve: { tokens: 500 } }).reserve().tokens).toBe(500);
  });

  it('refuses a work call whose forecast eats into the reserve; then only the answer may spend it, within the limit', () => {
    const b = new RunBudget({ maxTokens: 1000, onExhausted: 'answer', reserve: { tokens: 300 } });
    b.afterModelCall(b.beforeModelCall('m', request(2000))); // 500 tokens of input forecast, fits in 700
    b.recordUsage('m', { inputTokens: 500, outputTokens: 100 });
    expect(b.underReserve()).toBe(false);
    // 600 used + 50 input + 100 (the largest output so far) > 700: refused, nothing counted
    const refused = (() => {
      try {
        b.beforeModelCall('m', request(200));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(BudgetExceededError);
    expect(refused).toMatchObject({ budget: 'maxTokens', limit: 1000, used: 600, reserve: 300 });
    expect(b.modelCalls).toBe(1);
    expect(b.underReserve()).toBe(true); // sticky: no step starts from here on
    expect(() => b.beforeModelCall('m', request(4))).toThrow(/kept for the answer/); // nor does a smaller call go on
    b.beginAnswer();
    const answer = request(400); // 100 tokens of input: 300 left for the output
    expect(b.answerOutputCap(answer)).toBe(300);
    b.beforeModelCall('m', { ...answer, settings: { maxTokens: 300 } });
    expect(() => b.beforeModelCall('m', request(2000, 1))).toThrow(BudgetExceededError); // cannot fit at all
  });

  it("'stop' has no reserve: a call is refused only when its input does not fit the limit itself", () => {
    const b = new RunBudget({ maxTokens: 1000 });
    b.recordUsage('m', { inputTokens: 900, outputTokens: 0 });
    // 900 + 90 of input < 1000: made ('answer' with a reserve would refuse it), its output capped at the 10 left
    expect(b.beforeModelCall('m', request(360))?.settings?.maxTokens).toBe(10);
    expect(b.underReserve()).toBe(false);
    expect(() => b.beforeModelCall('m', request(4000))).toThrow(/estimated input \(1000\) does not fit/);
  });

  it('model calls and time: a work call starts only below limit − reserve', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const b = new RunBudget({ maxModelCalls: 3, timeoutMs: 10_000, onExhausted: 'answer', reserve: { timeMs: 2000 } });
    b.beforeModelCall();
    b.beforeModelCall();
    expect(() => b.beforeModelCall()).toThrow(/kept for the answer/);
    const t = new RunBudget({ timeoutMs: 10_000, onExhausted: 'answer', reserve: { timeMs: 2000 } });
    vi.setSystemTime(7_999);
    t.beforeModelCall();
    vi.setSystemTime(8_000);
    expect(() => t.beforeModelCall()).toThrow(BudgetExceededError);
  });

  it('cost: the answer output is capped to what is left at the model output price', () => {
    const prices = { m: { inputPerMillion: 1, outputPerMillion: 10 } };
    const b = new RunBudget({ maxCost: 0.01, onExhausted: 'answer', reserve: { cost: 0.005 }, prices });
    b.recordUsage('m', { inputTokens: 4000, outputTokens: 0 }); // $0.004
    // $0.006 left, the input (1000 tokens) costs $0.001: $0.005 of output at $10 per million = 500 tokens
    expect(b.answerOutputCap(request(4000), 'm')).toBe(500);
  });

  it('bad reserves are ConfigurationErrors naming the numbers', () => {
    expect(() => new RunBudget({ maxModelCalls: 2, onExhausted: 'answer', reserve: { modelCalls: 2 } })).toThrow(
      /reserve\.modelCalls \(2\) is not smaller than limits\.maxModelCalls \(2\)/,
    );
    expect(() => new RunBudget({ maxTokens: 2, onExhausted: 'answer', reserve: { tokens: -1 } })).toThrow(ConfigurationError);
    expect(() => new RunBudget({ maxTokens: 2, onExhausted: 'answer', reserve: { steps: 1 } as never })).toThrow(/not a budget amount/);
    expect(() => new RunBudget({ onExhausted: 'later' as never })).toThrow(/'stop' or 'answer'/);
  });
});

describe("ScriptedModel({ usage: 'measured' })", () => {
  it('reports the request and answer sizes (4 characters a token), the output capped at settings.maxTokens', async () => {
    const model = new ScriptedModel({ responses: ['y'.repeat(400), 'y'.repeat(400)], usage: 'measured' });
    expect((await model.generate(request(800))).usage).toEqual({ inputTokens: 200, outputTokens: 100 });
    expect((await model.generate(request(800, 30))).usage).toEqual({ inputTokens: 200, outputTokens: 30 });
  });
});
