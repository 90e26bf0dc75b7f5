import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { codeTool } from '@replan/code';

function capture() {
  const parts: string[] = [];
  return { out: { write: (t: string) => parts.push(t) }, lines: () => parts.join('').split('\n') };
}

const fetchInvoice = tool({
  name: 'fetch_invoice',
  description: 'fetches an invoice',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => ({ id, total: id === 'B' ? 900 : 100 }),
});

// Seven lines, one with an escape sequence a model could write to repaint the terminal.
const PROGRAM = [
  'const out = [];',
  "for (const id of ['A', 'B']) {",
  '  const inv = await tools.fetch_invoice({ id });',
  '  out.push(inv);',
  '}',
  "console.log('\u001b[2Jdone');",
  'return out;',
].join('\n');

describe('renderRun shows a code step: the program, and its inner calls nested under the code call', () => {
  it('prints the first lines of the program (control characters made visible), then each inner call one level down', async () => {
    const models = scriptPlanExecute({
      plan: { steps: ['check the invoices'] },
      steps: { 'check the invoices': { toolCalls: [{ name: 'run_code', args: { program: PROGRAM } }], text: 'B is over 500' } },
      answer: 'B is over 500',
    });
    const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: [fetchInvoice] })] });
    const { out, lines } = capture();
    const result = await renderRun(new Runner({ agent, appName: 'x' }).run({ userId: 'u', input: 'check' }), { out });
    expect(result.status, result.error?.message).toBe('completed');
    const text = lines();
    const at = text.indexOf('│  ├─ code run_code (a program of 7 lines)');
    expect(at, text.join('\n')).toBeGreaterThan(0);
    expect(text.slice(at, at + 18)).toEqual([
      '│  ├─ code run_code (a program of 7 lines)',
      '│  │  │ const out = [];',
      "│  │  │ for (const id of ['A', 'B']) {",
      '│  │  │   const inv = await tools.fetch_invoice({ id });',
      '│  │  │   out.push(inv);',
      '│  │  │ }',
      "│  │  │ console.log('?[2Jdone');",
      '│  │  │ … 1 more line',
      '│  │  ├─ #0 tool fetch_invoice {"id":"A"}',
      '│  │  ├─ #0 returned {"id":"A","total":100}',
      '│  │  ├─ #1 tool fetch_invoice {"id":"B"}',
      '│  │  ├─ #1 returned {"id":"B","total":900}',
      '│  ├─ returned {"result":[{"id":"A","total":100},{"id":"B","total":900}],"logs":["\\u001b[2Jdone"]}',
      expect.stringMatching(/^│ {2}└─ done .* B is over 500$/),
      '└─ Answer B is over 500',
      '',
      'Per step',
      // The code call and its two inner calls: three tools ran in the step, in two model calls.
      expect.stringMatching(/^ {2}Step 1 {2}2 calls · .* · 3 tool calls$/),
    ]);
    expect(result.toolCalls).toBe(3);
    expect(result.breakdown.byLabel['1']?.toolCalls).toBe(3);
    expect(text).toContainEqual(expect.stringMatching(/^status completed · 4 model calls · 3 tool calls · /));
    expect(text.join('\n')).not.toContain('\u001b');
  });
});

describe('renderRun: code steps in graph mode', () => {
  it("two steps' programs run at once: each inner call is drawn under its own step ([a] or [b])", async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return `found ${q}`;
      },
    });
    const programOver = (qs: string[]) =>
      `const out = []; for (const q of ${JSON.stringify(qs)}) out.push(await tools.lookup({ q })); return out;`;
    const models = scriptPlanExecute({
      plan: {
        steps: [
          { id: 'a', task: 'look up the a notes', dependsOn: [] },
          { id: 'b', task: 'look up the b notes', dependsOn: [] },
        ],
      },
      steps: {
        a: { toolCalls: [{ name: 'run_code', args: { program: programOver(['a1', 'a2', 'a3']) } }], text: 'a done' },
        b: { toolCalls: [{ name: 'run_code', args: { program: programOver(['b1', 'b2', 'b3']) } }], text: 'b done' },
      },
      answer: 'both done',
    });
    const agent = createPlanExecuteAgent({ model: models.model, mode: 'graph', tools: [codeTool({ tools: [lookup] })] });
    const { out, lines } = capture();
    const result = await renderRun(new Runner({ agent, appName: 'x' }).run({ userId: 'u', input: 'look up' }), { out });
    expect(result.status, result.error?.message).toBe('completed');
    const inner = lines().filter((l) => /├─ #\d (tool|returned)/.test(l));
    expect(inner).toHaveLength(12);
    for (const line of inner) {
      const step = /\[(a|b)\]/.exec(line)?.[1];
      expect(step, line).toBeDefined();
      // Each inner call sits under the step whose program made it.
      expect(line).toContain(`${step}`);
      expect(line).toMatch(new RegExp(`(lookup \\{"q":"${step}\\d"\\}|found ${step}\\d)$`));
    }
  });
});

describe('renderRun: an approval inside a program', () => {
  it('names the inner tool and its call number, and how to answer it', async () => {
    const send = tool({
      name: 'send_report',
      description: 'sends the report',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => `sent to ${to}`,
    });
    const models = scriptPlanExecute({
      plan: { steps: ['send it'] },
      steps: {
        'send it': { toolCalls: [{ name: 'run_code', args: { program: "return await tools.send_report({ to: 'ops' });" } }], text: 'sent' },
      },
      answer: 'sent',
    });
    const runner = new Runner({
      agent: createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: [send] })] }),
      appName: 'x',
      sessionStore: new InMemorySessionStore(),
    });
    const { out, lines } = capture();
    const result = await renderRun(runner.run({ userId: 'u', sessionId: 's', input: 'send' }), { out });
    expect(result.status).toBe('interrupted');
    const id = result.interrupts[0]?.id ?? '';
    expect(id).toMatch(/#0:approval$/);
    expect(lines()).toContain(`│  ├─ Waiting for approval send_report (call #0 of run_code) {"to":"ops"}`);
    expect(lines()).toContain(`│  │   answer ${id}: runner.resume({ userId, sessionId, approvals: { ${JSON.stringify(id)}: true } })`);
    const done = await runner.resume({ userId: 'u', sessionId: 's', approvals: { [id]: true } }).result();
    expect(done.status).toBe('completed');
  });
});
