import { z } from 'zod';
import { InMemorySessionStore, Runner, tool, type Session, type ToolResultBlock } from '@replan/core';
import { checkRecording, ReplayModel, replayTools } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { describe, expect, it } from 'vitest';
import { defineEvalSet, runEval, sessionToEvalCase } from '@replan/eval';
import { codeTool } from '@replan/code';

const TOTALS: Record<string, number> = { 'INV-1': 120, 'INV-2': 940, 'INV-3': 75 };
const PROGRAM = [
  'const flagged = [];',
  "for (const id of ['INV-1', 'INV-2', 'INV-3']) {",
  '  const invoice = await tools.fetch_invoice({ id });',
  '  if (invoice.total > 500) { await tools.flag_invoice({ id }); flagged.push(id); }',
  '}',
  'return { flagged };',
].join('\n');
const STEP = 'Flag the invoices over 500';

/** The invoice tools, counting their runs (a replay must run none). */
function invoiceTools() {
  const runs: string[] = [];
  return {
    runs,
    tools: [
      tool({
        name: 'fetch_invoice',
        description: 'Fetches an invoice',
        parameters: z.object({ id: z.string() }),
        execute: ({ id }) => {
          runs.push(`fetch ${id}`);
          return { id, total: TOTALS[id] ?? 0 };
        },
      }),
      tool({
        name: 'flag_invoice',
        description: 'Flags an invoice',
        parameters: z.object({ id: z.string() }),
        execute: ({ id }) => {
          runs.push(`flag ${id}`);
          return { flagged: id };
        },
      }),
    ],
  };
}

const text = (results: readonly ToolResultBlock[]) => {
  const out = results.find((r) => r.name === 'run_code')?.output as { result?: { flagged?: string[] } } | undefined;
  return `Flagged: ${out?.result?.flagged?.join(', ') ?? 'nothing'}`;
};

/** A production run whose one step is a code call; its stored session. */
async function recordedCodeStep(): Promise<Session> {
  const { tools } = invoiceTools();
  const models = scriptPlanExecute({
    plan: { steps: [STEP] },
    steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: PROGRAM } }], text } },
    answer: (results) => results[STEP] ?? 'nothing ran',
  });
  const store = new InMemorySessionStore();
  const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools })] });
  const result = await new Runner({ agent, appName: 'inv', sessionStore: store })
    .run({ userId: 'ana', sessionId: 'prod', input: 'Flag the large invoices.' })
    .result();
  expect(result.status, result.error?.message).toBe('completed');
  const session = await store.get({ appName: 'inv', userId: 'ana', id: 'prod' });
  if (!session) throw new Error('no session');
  return session;
}

describe('code steps in replay and evals: inner calls are ordinary tool calls', () => {
  it('a session with a code step is a valid recording, and its eval case expects the code call and then each call its program made', async () => {
    const session = await recordedCodeStep();
    expect(() => checkRecording(session)).not.toThrow();
    const { evalCase } = sessionToEvalCase(session, { name: 'code-step' });
    expect(evalCase.expect?.trajectory).toEqual({
      mode: 'exact',
      calls: [
        { name: 'run_code', args: { program: PROGRAM } },
        { name: 'fetch_invoice', args: { id: 'INV-1' } },
        { name: 'fetch_invoice', args: { id: 'INV-2' } },
        { name: 'flag_invoice', args: { id: 'INV-2' } },
        { name: 'fetch_invoice', args: { id: 'INV-3' } },
      ],
    });
    expect(evalCase.expect?.answer).toBe('Flagged: INV-2');
  });

  it('replays offline: the program runs again in the sandbox, every inner call answered from the recording, no tool run; the eval passes', async () => {
    const session = await recordedCodeStep();
    const { evalCase } = sessionToEvalCase(session, { name: 'code-step' });
    const { runs, tools } = invoiceTools();
    const report = await runEval({
      set: defineEvalSet({ name: 'regressions', cases: [evalCase] }),
      makeRunner: () => {
        const agent = createPlanExecuteAgent({
          model: ReplayModel.fromSession(session),
          tools: [codeTool({ tools: replayTools(session, tools) })],
        });
        return new Runner({ agent, appName: 'inv' });
      },
    });
    expect(report.cases[0]?.criteria.map((c) => [c.criterion, c.pass])).toEqual([
      ['trajectory', true],
      ['answer', true],
      ['status', true],
    ]);
    expect(report.pass).toBe(true);
    expect(runs).toEqual([]);
  });

  it('an eval expecting a flag the program did not make fails on the trajectory, naming the inner calls', async () => {
    const session = await recordedCodeStep();
    const { tools } = invoiceTools();
    const report = await runEval({
      set: defineEvalSet({
        name: 'expectations',
        cases: [
          {
            name: 'flags INV-3',
            input: 'Flag the large invoices.',
            expect: {
              trajectory: {
                mode: 'in-order',
                calls: [
                  { name: 'fetch_invoice', args: { id: 'INV-3' } },
                  { name: 'flag_invoice', args: { id: 'INV-3' } },
                ],
              },
            },
          },
        ],
      }),
      makeRunner: () =>
        new Runner({
          agent: createPlanExecuteAgent({
            model: ReplayModel.fromSession(session),
            tools: [codeTool({ tools: replayTools(session, tools) })],
          }),
          appName: 'inv',
        }),
    });
    const trajectory = report.cases[0]?.criteria.find((c) => c.criterion === 'trajectory');
    expect(trajectory?.pass).toBe(false);
    expect(trajectory?.reason).toContain('flag_invoice');
  });
});
