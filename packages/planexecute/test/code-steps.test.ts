import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, InMemorySessionStore, messageText, Runner, tool, type ToolResultBlock } from '@replan/core';
import { createExecutor, createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { codeTool } from '@replan/code';

/** Invoices 1..n; the ones whose total is over 500 are flagged. The tools count what they did. */
function invoiceTools(n: number) {
  const done = { fetched: [] as string[], flagged: [] as string[] };
  const fetchInvoice = tool({
    name: 'fetch_invoice',
    description: 'Fetches an invoice by id',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => {
      done.fetched.push(id);
      return { id, total: (Number(id.slice(4)) * 137) % 1000 };
    },
  });
  const flagInvoice = tool({
    name: 'flag_invoice',
    description: 'Flags an invoice for review',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => {
      done.flagged.push(id);
      return { flagged: id };
    },
  });
  const ids = Array.from({ length: n }, (_, i) => `INV-${i + 1}`);
  const expected = ids.filter((id) => (Number(id.slice(4)) * 137) % 1000 > 500);
  return { done, tools: [fetchInvoice, flagInvoice], ids, expected };
}

const program = (ids: readonly string[]) =>
  [
    `const ids = ${JSON.stringify(ids)};`,
    'const flagged = [];',
    'for (const id of ids) {',
    '  const invoice = await tools.fetch_invoice({ id });',
    '  if (invoice.total > 500) { await tools.flag_invoice({ id }); flagged.push(id); }',
    '}',
    'console.log(`checked ${ids.length}`);',
    'return { flagged };',
  ].join('\n');

const STEP = 'Check every invoice and flag the ones over 500';

/** The step's text, from what the code call returned. */
const reportOf = (results: readonly ToolResultBlock[]) => {
  const out = results.find((r) => r.name === 'run_code');
  if (!out || out.isError) return `the program failed: ${JSON.stringify(out?.output)}`;
  return `Flagged ${(out.output as { result: { flagged: string[] } }).result.flagged.join(', ')}`;
};

describe('code steps in plan–execute: a code tool among the executor tools', () => {
  it('createExecutor({ tools: [codeTool(…)] }): a plan step runs one script over 12 invoices; every inner call is stored under the code call', async () => {
    const { done, tools, ids, expected } = invoiceTools(12);
    const models = scriptPlanExecute({
      plan: { steps: [STEP] },
      steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: program(ids) } }], text: reportOf } },
      answer: (results) => results[STEP] ?? 'nothing ran',
    });
    const agent = createPlanExecuteAgent({
      plannerModel: models.plannerModel,
      replannerModel: models.replannerModel,
      executor: createExecutor({ model: models.executorModel, tools: [codeTool({ tools })] }),
    });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent, appName: 'inv', sessionStore: store });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'Flag the large invoices.' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    expect(done.fetched).toEqual(ids);
    expect(done.flagged).toEqual(expected);
    expect(result.output).toBe(`Flagged ${expected.join(', ')}`);
    // One executor turn with the program, one with the step's text: not one turn per invoice.
    expect(models.executorModel.calls).toBe(2);
    expect(models.executorModel.requests[0]?.tools?.map((t) => t.name)).toEqual(['run_code']);
    const events = (await store.get({ appName: 'inv', userId: 'u', id: 's' }))?.events ?? [];
    const inner = events.filter((e) => e.meta?.codeCall);
    expect(inner).toHaveLength(2 * (ids.length + expected.length));
    const marks = inner.map((e) => e.meta?.codeCall as { id: string; index: number });
    const codeCallId = marks[0]?.id;
    expect(marks.map((m) => m.index)).toEqual(Array.from({ length: ids.length + expected.length }, (_, n) => [n, n]).flat());
    expect(inner[0]?.message?.content[0]).toMatchObject({
      type: 'tool_call',
      id: `${codeCallId}#0`,
      name: 'fetch_invoice',
      args: { id: 'INV-1' },
    });
    // The model saw the code call's result, never the inner calls.
    const second = models.executorModel.requests[1];
    expect(second?.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(JSON.stringify(second?.messages)).not.toContain(`${codeCallId}#0`);
  });

  it("createPlanExecuteAgent({ tools: [summarize, codeTool(…)] }): the executor gets the code tool and the planner's prompt lists it", async () => {
    const { done, tools, ids, expected } = invoiceTools(5);
    const models = scriptPlanExecute({
      plan: { steps: [STEP] },
      steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: program(ids) } }], text: reportOf } },
      answer: (results) => results[STEP] ?? 'nothing ran',
    });
    const summarize = tool({
      name: 'summarize',
      description: 'Summarizes text',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const agent = createPlanExecuteAgent({ model: models.model, tools: [summarize, codeTool({ tools, limits: { toolCalls: 20 } })] });
    const result = await new Runner({ agent, appName: 'inv' }).run({ userId: 'u', input: 'Flag the large invoices.' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.output).toBe(`Flagged ${expected.join(', ')}`);
    expect(done.flagged).toEqual(expected);
    const planner = models.plannerModel.requests[0];
    const prompt = planner?.messages.map((m) => messageText(m)).join('\n') ?? '';
    expect(prompt).toContain('summarize');
    expect(prompt).toContain('run_code');
    expect(prompt).toContain('tools.fetch_invoice');
    expect(models.executorModel.requests[0]?.tools?.map((t) => t.name)).toEqual(['summarize', 'run_code']);
  });

  it("a program over the step's limits is an error result the step reads; the run goes on", async () => {
    const { done, tools, ids } = invoiceTools(5);
    const models = scriptPlanExecute({
      plan: { steps: [STEP] },
      steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: program(ids) } }], text: reportOf } },
      answer: (results) => results[STEP] ?? 'nothing ran',
    });
    const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools, limits: { toolCalls: 3 } })] });
    const result = await new Runner({ agent, appName: 'inv' }).run({ userId: 'u', input: 'Flag the large invoices.' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.output).toMatch(/^the program failed: .*limits\.toolCalls = 3/);
    expect(done.fetched.length).toBeLessThanOrEqual(3);
  });

  it('a code tool named like one of `tools` is a ConfigurationError naming it', () => {
    const { tools } = invoiceTools(1);
    const runCode = tool({ name: 'run_code', description: 'mine', parameters: z.object({}), execute: () => 'x' });
    const models = scriptPlanExecute({ plan: { steps: [] }, steps: {}, answer: 'x' });
    expect(() => createExecutor({ model: models.executorModel, tools: [runCode, codeTool({ tools })] })).toThrow(ConfigurationError);
    expect(() => createExecutor({ model: models.executorModel, tools: [runCode, codeTool({ tools })] })).toThrow(/run_code/);
    // With a name of its own it is fine.
    expect(() => createExecutor({ model: models.executorModel, tools: [runCode, codeTool({ tools, name: 'run_script' })] })).not.toThrow();
  });
});

describe('code steps and the run budget', () => {
  it('a program is one model turn: 40 invoices fit in maxModelCalls 4, where one call per turn needs 43', async () => {
    const { done, tools, ids, expected } = invoiceTools(40);
    const models = scriptPlanExecute({
      plan: { steps: [STEP] },
      steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: program(ids) } }], text: reportOf } },
      answer: (results) => results[STEP] ?? 'nothing ran',
    });
    const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools })] });
    const result = await new Runner({ agent, appName: 'inv' }).run({ userId: 'u', input: 'Flag.', limits: { maxModelCalls: 4 } }).result();
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.modelCalls).toBe(4); // planner, the program, the step's text, the answer
    expect(done.fetched).toHaveLength(40);
    expect(done.flagged).toEqual(expected);
  });

  it("the run's timeoutMs stops a program mid-way (budget_exceeded, resumable); the resume never repeats a finished inner call", async () => {
    const { tools, ids, expected } = invoiceTools(8);
    const runsOf = new Map<string, number>();
    const slow = tools.map((t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: z.object({ id: z.string() }),
        execute: async (args: { id: string }, ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 40));
          runsOf.set(`${t.name} ${args.id}`, (runsOf.get(`${t.name} ${args.id}`) ?? 0) + 1);
          return t.execute(args, ctx);
        },
      }),
    );
    const models = scriptPlanExecute({
      plan: { steps: [STEP] },
      steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: program(ids) } }], text: reportOf } },
      answer: (results) => results[STEP] ?? 'nothing ran',
    });
    const store = new InMemorySessionStore();
    const runner = new Runner({
      agent: createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: slow })] }),
      appName: 'inv',
      sessionStore: store,
    });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'Flag.', limits: { timeoutMs: 150 } }).result();
    expect(first.status).toBe('budget_exceeded');
    const stored =
      (await store.get({ appName: 'inv', userId: 'u', id: 's' }))?.events.filter((e) => e.meta?.codeCall && e.message?.role === 'tool') ??
      [];
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(ids.length);
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status, resumed.error?.message).toBe('completed');
    expect(resumed.output).toBe(`Flagged ${expected.join(', ')}`);
    // Each finished call ran once; only a call cut off mid-way (no stored result) may have run twice.
    const twice = [...runsOf].filter(([, n]) => n > 1);
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(runsOf.size).toBe(ids.length + expected.length);
    // Tools started, counted per run: the code call twice (it re-runs its program), each inner call as often as it ran.
    const ran = [...runsOf.values()].reduce((a, b) => a + b, 0);
    expect(first.toolCalls + resumed.toolCalls).toBe(2 + ran);
    expect(resumed.breakdown.byLabel['1']?.toolCalls).toBe(resumed.toolCalls);
  });
});
