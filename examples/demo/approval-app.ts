import { z } from 'zod';
import { messageText, Runner, tool, type ModelRequest, type SessionStore } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';

/** A second demo app whose only step sends a report, which needs a human's approval (answer it in `pnpm studio`). */
export const APPROVAL_APP = 'replan-demo-approvals';

const sendReport = tool({
  name: 'send_report',
  description: 'Emails the yearly cost report to a recipient.',
  parameters: z.object({ to: z.string(), summary: z.string() }),
  needsApproval: true,
  execute: ({ to }) => `Report sent to ${to}.`,
});

const isPlanner = (r: ModelRequest) => typeof r.toolChoice === 'object' && r.toolChoice.name === 'plan';

/** The step's outcome as the executor reports it: the tool's own text, so the replanner reads what happened. */
function afterSend(request: ModelRequest): string {
  const result = request.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
  const output = typeof result?.output === 'string' ? result.output : JSON.stringify(result?.output);
  return result?.isError ? `The report was not sent. ${output}` : output;
}

/** What the replanner answers: it reads the executor's report of the step (approved: the tool ran and said so). */
function answer(request: ModelRequest): string {
  const progress = request.messages.map(messageText).join('\n');
  return /Report sent to /.test(progress)
    ? 'The yearly cost report went to finance@example.com.'
    : 'The report was not sent: the approval was refused.';
}

export function approvalRunner(store: SessionStore): Runner {
  const model = new ScriptedModel({
    id: 'scripted-approvals',
    latencyMs: 80,
    respond: (request) => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['Email the yearly cost report to finance@example.com'] } });
      if (request.tools?.some((t) => t.name === 'respond')) return callTools({ name: 'respond', args: { response: answer(request) } });
      if (request.messages.at(-1)?.role === 'tool') return afterSend(request);
      return callTools({
        name: 'send_report',
        args: { to: 'finance@example.com', summary: 'Support team on the Team plan: 5967 EUR per year.' },
      });
    },
  });
  const agent = createPlanExecuteAgent({ model, tools: [sendReport] });
  return new Runner({ agent, appName: APPROVAL_APP, sessionStore: store });
}
