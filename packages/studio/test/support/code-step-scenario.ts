import { z } from 'zod';
import { Runner, type SessionStore, type ToolResultBlock, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { HOSTILE } from './scenarios.js';
import { codeTool } from '@replan/code';

export const CODE_STEP = 'Check the three invoices and flag the ones over 500';

/** A model-written program with markup in it: the page must show it as text. */
export const CODE_PROGRAM = [
  `// ${HOSTILE}`,
  'const flagged = [];',
  "for (const id of ['INV-1', 'INV-2', 'INV-3']) {",
  '  const invoice = await tools.fetch_invoice({ id });',
  '  if (invoice.total > 500) flagged.push(await tools.flag_invoice({ id }));',
  '}',
  'return flagged;',
].join('\n');

const TOTALS: Record<string, number> = { 'INV-1': 120, 'INV-2': 940, 'INV-3': 75 };

/**
 * A plan–execute run whose one step runs a code call (`code`, `@replan/code`): its program fetches
 * three invoices and flags the one over 500 (four inner calls under the code call, each a
 * tool-call event and a tool-result event marked `meta.codeCall`). The second invoice's note is hostile HTML. The
 * step's text is made from what the code call returned.
 */
export function codeStepScenario(store: SessionStore, appName = 'invoices'): Runner {
  const fetchInvoice = tool({
    name: 'fetch_invoice',
    description: 'Fetches an invoice by id',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => ({ id, total: TOTALS[id] ?? 0, note: id === 'INV-2' ? HOSTILE : 'ok' }),
  });
  const flagInvoice = tool({
    name: 'flag_invoice',
    description: 'Flags an invoice for review',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => ({ flagged: id }),
  });
  const flagged = (results: readonly ToolResultBlock[]) => {
    const out = results.find((r) => r.name === 'run_code')?.output as { result?: unknown[] } | undefined;
    const ids = (out?.result ?? []).flatMap((r) =>
      typeof (r as { flagged?: unknown }).flagged === 'string' ? [(r as { flagged: string }).flagged] : [],
    );
    return `Flagged: ${ids.join(', ') || 'none'}`;
  };
  const models = scriptPlanExecute({
    plan: { steps: [CODE_STEP] },
    steps: { [CODE_STEP]: { toolCalls: [{ name: 'run_code', args: { program: CODE_PROGRAM } }], text: flagged } },
    answer: (results) => results[CODE_STEP] ?? 'nothing ran',
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: [fetchInvoice, flagInvoice] })] });
  return new Runner({ agent, appName, sessionStore: store });
}
