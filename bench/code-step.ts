/**
 * Code steps (`@replan/code`): (1) one plan step that checks 50 records, one tool call per model
 * turn, against the same step as one program (`codeTool` among the executor's tools): model calls,
 * input tokens and wall time of the run. Scripted models answer at once, so the wall time is the
 * library's and the sandbox's own; input tokens are the runner's estimate from each request's size
 * (about 4 characters a token: `requestSize()` of the model-call-start lifecycle, what budgets use).
 * (2) The sandbox: what a code call costs over a plain tool call (a fresh QuickJS context per
 * program), and what each call a program makes adds (two events stored, as for any tool call).
 * Run: pnpm bench code-step (or: pnpm build && npx tsx bench/code-step.ts)
 */
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FileSessionStore,
  ReActAgent,
  Runner,
  type RunObserver,
  type SessionStore,
  type Tool,
  tool,
  type ToolResultBlock,
} from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { codeTool } from '@replan/code';
import { fmt, medianMs, table } from './measure.js';

const RECORDS = 50;
const STEP = `Check the ${RECORDS} payment records and list the ones to review`;
const ids = Array.from({ length: RECORDS }, (_, i) => `P-${String(i + 1).padStart(3, '0')}`);

/** A record of a realistic size (~300 characters of JSON); every seventh is over the review threshold. */
const checkRecord = tool({
  name: 'check_record',
  description: 'Fetches one payment record by id and checks it against the rules',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => {
    const n = Number(id.slice(2));
    return {
      id,
      payee: `Supplier ${n % 13}`,
      amount: n % 7 === 0 ? 12_500 + n : 300 + n * 11,
      currency: 'EUR',
      review: n % 7 === 0,
      note: 'Checked against the duplicate-payment, sanctions and approval-limit rules; all sources answered.',
    };
  },
});

const PROGRAM = [
  `const ids = ${JSON.stringify(ids)};`,
  'const review = [];',
  'for (const id of ids) {',
  '  const r = await tools.check_record({ id });',
  '  if (r.review) review.push(id);',
  '}',
  'return { checked: ids.length, review };',
].join('\n');

/** The step's text, from what the tools returned (either way). */
function stepText(results: readonly ToolResultBlock[]): string {
  const code = results.find((r) => r.name === 'run_code')?.output as { result?: { review: string[] } } | undefined;
  const review = code?.result
    ? code.result.review
    : results.flatMap((r) => ((r.output as { review?: boolean; id?: string }).review ? [(r.output as { id: string }).id] : []));
  return `To review: ${review.join(', ')}`;
}

interface RunFigures {
  modelCalls: number;
  inputTokens: number;
  largestRequest: number;
  output: string;
}

async function stepRun(asProgram: boolean, latencyMs = 0): Promise<RunFigures> {
  const models = scriptPlanExecute(
    {
      plan: { steps: [STEP] },
      steps: {
        [STEP]: {
          toolCalls: asProgram
            ? [{ name: 'run_code', args: { program: PROGRAM } }]
            : ids.map((id) => ({ name: 'check_record', args: { id } })),
          text: stepText,
        },
      },
      answer: (results) => results[STEP] ?? 'nothing ran',
    },
    { latencyMs },
  );
  let inputTokens = 0;
  let largestRequest = 0;
  const sizes: RunObserver = {
    onModelCallStart(info) {
      const { estimatedInputTokens } = info.requestSize();
      inputTokens += estimatedInputTokens;
      largestRequest = Math.max(largestRequest, estimatedInputTokens);
    },
  };
  // Stepmax 60: the one-call-per-turn step needs 51 model calls.
  const agent = createPlanExecuteAgent({
    model: models.model,
    stepMaxIterations: 60,
    ...(asProgram ? { tools: [codeTool({ tools: [checkRecord] })] } : { tools: [checkRecord] }),
  });
  const result = await new Runner({ agent, appName: 'bench-code', observers: [sizes] }).run({ userId: 'u', input: STEP }).result();
  if (result.status !== 'completed')
    throw new Error(`the ${asProgram ? 'program' : 'per-turn'} run ended ${result.status}: ${result.error?.message}`);
  return { modelCalls: result.modelCalls, inputTokens, largestRequest, output: result.output ?? '' };
}

/** A ReAct run whose one tool call is `call`, then an answer: the run's wall time measures the call. */
function oneCallRun(call: { name: string; args: Record<string, unknown> }, tools: readonly Tool[], sessionStore?: SessionStore) {
  // The model is shared by the runs: it calls the tool unless the request already holds its result.
  const model = new ScriptedModel({ respond: (req) => (req.messages.at(-1)?.role === 'tool' ? 'done' : callTools(call)) });
  const agent = new ReActAgent({ name: 'bench', model, tools });
  const runner = new Runner({ agent, appName: 'bench-sandbox', ...(sessionStore ? { sessionStore } : {}) });
  return async () => {
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    if (result.status !== 'completed') throw new Error(`${call.name} ended ${result.status}: ${result.error?.message}`);
  };
}

const INNER = 200;
/** The model latency of the second wall-time column (ms per model call). */
const LATENCY = 50;
const noop = tool({ name: 'noop', description: 'does nothing', parameters: z.object({ i: z.number() }), execute: ({ i }) => i });

export async function codeStepBench(): Promise<string> {
  const perTurn = await stepRun(false);
  const program = await stepRun(true);
  if (perTurn.output !== program.output) throw new Error(`the two runs disagree: "${perTurn.output}" vs "${program.output}"`);
  const perTurnMs = await medianMs(() => stepRun(false), 7, 2);
  const programMs = await medianMs(() => stepRun(true), 7, 2);
  // With a model that takes time to answer, as every real one does (the wall time is then mostly model calls).
  const slowPerTurnMs = await medianMs(() => stepRun(false, LATENCY), 3, 0);
  const slowProgramMs = await medianMs(() => stepRun(true, LATENCY), 3, 0);

  const runCode = codeTool({ tools: [noop], limits: { toolCalls: INNER + 1 } });
  const plainMs = await medianMs(oneCallRun({ name: 'noop', args: { i: 1 } }, [noop]));
  const emptyMs = await medianMs(oneCallRun({ name: 'run_code', args: { program: 'return 1;' } }, [runCode]));
  const loop = `let s = 0; for (let i = 0; i < ${INNER}; i++) s += await tools.noop({ i }); return s;`;
  const loopMs = await medianMs(oneCallRun({ name: 'run_code', args: { program: loop } }, [runCode]), 9, 3);
  // On the file store every event is a durable append: an inner call stores two.
  const dir = mkdtempSync(join(tmpdir(), 'replan-bench-code-'));
  let filePlainMs: number;
  let fileEmptyMs: number;
  let fileLoopMs: number;
  try {
    const files = new FileSessionStore({ dir });
    filePlainMs = await medianMs(oneCallRun({ name: 'noop', args: { i: 1 } }, [noop], files), 9, 3);
    fileEmptyMs = await medianMs(oneCallRun({ name: 'run_code', args: { program: 'return 1;' } }, [runCode], files), 9, 3);
    fileLoopMs = await medianMs(oneCallRun({ name: 'run_code', args: { program: loop } }, [runCode], files), 5, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const steps = table(
    [
      `one step, ${RECORDS} records`,
      'model calls',
      'input tokens (est.)',
      'largest request (tokens)',
      'wall time, instant model (median of 7)',
      `wall time, model answering in ${LATENCY} ms (median of 3)`,
    ],
    [
      [
        'one tool call per model turn',
        perTurn.modelCalls,
        perTurn.inputTokens.toLocaleString('en'),
        perTurn.largestRequest.toLocaleString('en'),
        `${fmt(perTurnMs)} ms`,
        `${fmt(slowPerTurnMs, 0)} ms`,
      ],
      [
        'one program (`codeTool`)',
        program.modelCalls,
        program.inputTokens.toLocaleString('en'),
        program.largestRequest.toLocaleString('en'),
        `${fmt(programMs)} ms`,
        `${fmt(slowProgramMs, 0)} ms`,
      ],
      [
        'ratio',
        `${fmt(perTurn.modelCalls / program.modelCalls)}×`,
        `${fmt(perTurn.inputTokens / program.inputTokens)}×`,
        `${fmt(perTurn.largestRequest / program.largestRequest)}×`,
        `${fmt(perTurnMs / programMs)}×`,
        `${fmt(slowPerTurnMs / slowProgramMs)}×`,
      ],
    ],
  );
  const sandbox = table(
    ['sandbox (a ReAct run, median)', 'in-memory store', 'file store'],
    [
      ['one plain tool call (`noop`)', `${fmt(plainMs, 2)} ms`, `${fmt(filePlainMs, 2)} ms`],
      ['one code call, `return 1;`', `${fmt(emptyMs, 2)} ms`, `${fmt(fileEmptyMs, 2)} ms`],
      ['→ start-up over a plain call', `≈ ${fmt(emptyMs - plainMs, 2)} ms`, `≈ ${fmt(fileEmptyMs - filePlainMs, 2)} ms`],
      [`one code call making ${INNER} calls`, `${fmt(loopMs, 2)} ms`, `${fmt(fileLoopMs, 2)} ms`],
      ['→ per inner call', `≈ ${fmt((loopMs - emptyMs) / INNER, 3)} ms`, `≈ ${fmt((fileLoopMs - fileEmptyMs) / INNER, 3)} ms`],
    ],
  );
  return `### Code steps\n\n${steps}\n\n${sandbox}`;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await codeStepBench());
