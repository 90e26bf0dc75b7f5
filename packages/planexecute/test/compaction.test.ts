import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messageText, stringifyToolOutput, tool, type ModelRequest, compaction } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { collect, planCall, respondCall, runnerFor } from './support.js';

const WINDOW = 24_000;
const SOURCES = 40;
const fact = (n: number) => `FACT-${n}: value-${n * 7}`;
const text = (r: ModelRequest) =>
  r.messages
    .flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? stringifyToolOutput(b.output) : '')))
    .join('\n');
const tokens = (r: ModelRequest) => Math.ceil(text(r).length / 4) + 4 * r.messages.length;

describe('createPlanExecuteAgent({ compaction })', () => {
  it('a long step fits the window; the objective, plan and task stay verbatim; the step sees every fact', async () => {
    let fetched = 0;
    let headSize: number | undefined;
    const heads: string[][] = [];
    const sizes: number[] = []; // measured when sent: a request's message list may be the agent's own growing list
    const source = tool({
      name: 'fetch_source',
      description: 'Fetch one source',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        fetched = n;
        return `${'Nothing of note. '.repeat(180)}\n${fact(n)}\n${'Nothing of note. '.repeat(180)}`;
      },
    });
    const executorModel = new ScriptedModel({
      respond: (request) => {
        sizes.push(tokens(request));
        headSize ??= request.messages.length; // the first request is the step's input alone
        heads.push(request.messages.slice(0, headSize).map(messageText));
        const usage = { inputTokens: tokens(request), outputTokens: 5 };
        if (fetched < SOURCES)
          return { message: callTools({ name: 'fetch_source', args: { n: fetched + 1 } }), finishReason: 'tool_calls', usage };
        const seen = Array.from({ length: SOURCES }, (_, i) => i + 1).filter((n) => text(request).includes(fact(n)));
        return {
          message: { role: 'assistant', content: [{ type: 'text', text: `facts seen: ${seen.length}` }] },
          finishReason: 'stop',
          usage,
        };
      },
    });
    const summarizer = new ScriptedModel({
      respond: (request) => [...new Set(text(request).match(/FACT-\d+: value-\d+/g) ?? [])].join('\n'),
    });
    const agent = createPlanExecuteAgent({
      model: new ScriptedModel({ responses: [respondCall('unused')] }),
      plannerModel: new ScriptedModel({ responses: [planCall(['read all 40 sources'])] }),
      executorModel,
      replannerModel: new ScriptedModel({ responses: [respondCall('done')] }),
      tools: [source],
      stepMaxIterations: 100,
      middleware: { executor: [compaction({ model: summarizer, maxInputTokens: WINDOW })] },
    });
    const { result, events } = await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'Collect the facts.' }));
    expect(result.status).toBe('completed');
    expect(summarizer.calls).toBeGreaterThan(0);
    const compactions = events.filter((e) => e.actions?.compaction);
    expect(compactions).toHaveLength(summarizer.calls);
    expect(compactions.every((e) => e.path.endsWith('/executor'))).toBe(true);
    const requests = executorModel.requests;
    expect(sizes).toHaveLength(SOURCES + 1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    // The step's input (system prompt with the objective, the plan and the task) is the same in every request.
    const head = heads[0] ?? [];
    expect(head.join('\n')).toContain('read all 40 sources');
    expect(head.join('\n')).toContain('Collect the facts.');
    for (const h of heads) expect(h).toEqual(head);
    const last = requests.at(-1) as ModelRequest;
    expect(executorModel.calls).toBe(SOURCES + 1);
    expect(text(last)).toContain('[summary]');
    const stepResult = events.find((e) => e.message && messageText(e.message) === `facts seen: ${SOURCES}`);
    expect(stepResult).toBeDefined();
  });
});
