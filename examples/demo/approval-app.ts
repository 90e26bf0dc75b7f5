import { z } from 'zod';
import { Runner, stringifyToolOutput, tool, type SessionStore, type ToolResultBlock } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** A second demo app whose only step sends a report, which needs a human's approval (answer it in `pnpm studio`). */
export const APPROVAL_APP = 'replan-demo-approvals';

const STEP = 'Email the yearly cost report to finance@example.com';

const sendReport = tool({
  name: 'send_report',
  description: 'Emails the yearly cost report to a recipient.',
  parameters: z.object({ to: z.string(), summary: z.string() }),
  needsApproval: true,
  execute: ({ to }) => `Report sent to ${to}.`,
});

/** The step's outcome as the executor reports it: the tool's own text, so the replanner reads what happened. */
function afterSend(results: readonly ToolResultBlock[]): string {
  const result = results.at(-1);
  const output = stringifyToolOutput(result?.output);
  return result?.isError ? `The report was not sent. ${output}` : output;
}

export function approvalRunner(store: SessionStore): Runner {
  const { model } = scriptPlanExecute(
    {
      plan: { steps: [STEP] },
      steps: {
        [STEP]: {
          toolCalls: [
            { name: 'send_report', args: { to: 'finance@example.com', summary: 'Support team on the Team plan: 5967 EUR per year.' } },
          ],
          text: afterSend,
        },
      },
      // The answer follows the step's report (approved: the tool ran and said so).
      answer: (results) =>
        results[STEP]?.startsWith('Report sent to ')
          ? 'The yearly cost report went to finance@example.com.'
          : 'The report was not sent: the approval was refused.',
    },
    { id: 'scripted-approvals', latencyMs: 80 },
  );
  const agent = createPlanExecuteAgent({ model, tools: [sendReport] });
  return new Runner({ agent, appName: APPROVAL_APP, sessionStore: store });
}
