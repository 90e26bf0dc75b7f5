import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compaction, type ModelRequest, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { type StepView, scriptPlanExecute } from '@replan/planexecute/testing';

const NOTES = 20;
const WINDOW = 4_000;
const note = (n: number) => `NOTE-${n}: gauge ${n} read ${n * 3}`;
const notesIn = (text: string) => [...new Set(text.match(/NOTE-\d+: gauge \d+ read \d+/g) ?? [])];
const filler = 'The crew checked the gauges and logged the weather. ';
/** Input tokens as a provider would report them: ~3.5 characters a token of everything sent. */
const tokens = (request: ModelRequest) => Math.ceil(JSON.stringify(request.messages).length / 3.5);
const task = `Read the ${NOTES} notes and list every reading`;

/** One step reads 20 notes of ~2 KB under a 4k window with compaction on, scripted from what its model is shown. */
function compactedStep() {
  const views: StepView[] = [];
  // Measured when the model is called: the runner may go on to change the request's messages.
  const sizes: number[] = [];
  const turns: number[] = [];
  const fetchNote = tool({
    name: 'fetch_note',
    description: 'Fetch one note by number',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `${filler.repeat(20)}\n${note(n)}\n${filler.repeat(20)}`,
  });
  const s = scriptPlanExecute(
    {
      plan: { steps: [task] },
      steps: {
        [task]: {
          // The next note after the last one it can see (in a tool result or in the summary), then every note it sees.
          turn: (view) => {
            views.push(view);
            sizes.push(tokens(view.request));
            turns.push(view.request.messages.filter((m) => m.role === 'assistant').length);
            const seen = notesIn(view.text);
            return seen.length < NOTES ? { toolCalls: { name: 'fetch_note', args: { n: seen.length + 1 } } } : { text: seen.join('\n') };
          },
        },
      },
      answer: (results) => results[task] ?? '',
    },
    { contextWindow: WINDOW, usage: (request) => ({ inputTokens: tokens(request), outputTokens: 7 }) },
  );
  // The summarizer keeps every note it is shown.
  const summarizer = new ScriptedModel({ respond: (request) => notesIn(JSON.stringify(request.messages)).join('\n') });
  const agent = createPlanExecuteAgent({
    model: s.executorModel,
    plannerModel: s.plannerModel,
    executorModel: s.executorModel,
    replannerModel: s.replannerModel,
    tools: [fetchNote],
    stepMaxIterations: NOTES + 5,
    middleware: { executor: [compaction({ model: summarizer })] }, // maxInputTokens: the executor model's contextWindow
  });
  return { views, sizes, turns, summarizer, runner: new Runner({ agent, appName: 'notes' }) };
}

describe('scriptPlanExecute: a step scripted by what its model is shown (turn), a context window, reported usage', () => {
  it('a compacted step goes on from what its model still sees: the summary keeps the facts its tool results no longer hold', async () => {
    const { views, sizes, turns, summarizer, runner } = compactedStep();
    const run = runner.run({ userId: 'u', input: 'go' });
    let compactions = 0;
    for await (const event of run) if (event.actions?.compaction) compactions++;
    const result = await run.result();

    expect(result.status).toBe('completed');
    expect(compactions).toBeGreaterThan(0);
    expect(summarizer.calls).toBe(compactions);
    // Every note was fetched once and is in the answer, although the last request holds few of their tool results.
    for (let n = 1; n <= NOTES; n++) expect(result.output).toContain(note(n));
    expect(views.length).toBe(NOTES + 1);
    const last = views.at(-1);
    expect(notesIn(last?.text ?? '')).toHaveLength(NOTES);
    expect(last?.results.length).toBeLessThan(NOTES);
    expect(views.every((v) => v.step === task)).toBe(true);
    // A request's turns drop after a compaction: a count of its assistant messages would restart the step.
    expect(turns.some((t, i) => i > 0 && t < (turns[i - 1] ?? 0))).toBe(true);
    // Every executor request fits the window, as its usage reported it.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
  });

  it('every model claims the context window and reports the usage of its request; the one model passes on its role’s usage', async () => {
    const s = scriptPlanExecute(
      {
        plan: { steps: ['a'] },
        steps: { a: { turn: ({ results }) => (results.length ? { text: 'done' } : { toolCalls: { name: 'x' } }) } },
        answer: 'ok',
      },
      { contextWindow: 1234, usage: (request) => ({ inputTokens: request.messages.length * 100, outputTokens: 1 }) },
    );
    for (const model of [s.plannerModel, s.executorModel, s.replannerModel, s.model]) expect(model.contextWindow).toBe(1234);
    const request: ModelRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
    const asked = await s.model.generate(request, { agent: { name: 'planner', path: 'agent/planner' } });
    expect(asked.usage).toEqual({ inputTokens: 100, outputTokens: 1 });
    const two: ModelRequest = { messages: [...request.messages, callTools({ name: 'x' })] };
    const executed = await s.executorModel.generate(two, { agent: { name: 'executor', path: 'agent/executor', label: { id: 'a' } } });
    expect(executed.usage).toEqual({ inputTokens: 200, outputTokens: 1 });
    expect(executed.finishReason).toBe('tool_calls');
    // Without the options, the defaults: no window, ScriptedModel's usage.
    const plain = scriptPlanExecute({ plan: { steps: ['a'] }, steps: { a: 'done' }, answer: 'ok' });
    expect(plain.model.contextWindow).toBeUndefined();
    expect((await plain.model.generate(request, { agent: { name: 'planner', path: 'agent/planner' } })).usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
    });
  });
});
