import type { Run, RunResult } from '@replan/core';
import { AnswerGate } from '@replan/core/agent-kit';
import { RunTreeView } from './run-tree-view.js';
import { terminalStyle } from './terminal-style.js';

/** Where `renderRun` writes: `process.stdout` or anything with `write` (and `isTTY` for a terminal). */
export interface RenderTarget {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface RenderRunOptions {
  /** Default: `process.stdout`. */
  readonly out?: RenderTarget;
  /** A line before the tree: what was asked. */
  readonly objective?: string;
  /** Colours and streamed text (default: when `out` is a TTY and `NO_COLOR` is unset). */
  readonly color?: boolean;
  /** Label token counts as synthetic (a scripted model makes them up). */
  readonly syntheticUsage?: boolean;
  /** Printed before costs (default `$`). */
  readonly currency?: string;
}

/**
 * Prints a plan–execute run as it happens — the plan, steps with status, timing and tokens, tool
 * calls, revisions, the answer — then tokens and cost per step. On a TTY it is coloured and
 * streams model text (run with `stream: true`); otherwise it prints plain whole lines, fit for logs.
 * An answer an output guardrail blocked is never printed: the block is, naming the guardrail.
 * Consumes the run's events; returns its result.
 *
 * ```ts
 * const result = await renderRun(runner.run({ userId, input, stream: true }), { objective: input });
 * ```
 */
export async function renderRun(run: Run, options: RenderRunOptions = {}): Promise<RunResult> {
  const out = options.out ?? process.stdout;
  const tty = out.isTTY === true;
  const color = options.color ?? (tty && !process.env.NO_COLOR);
  const view = new RunTreeView({
    write: (text) => void out.write(text),
    style: terminalStyle(color),
    live: tty,
    ...(options.syntheticUsage ? { syntheticUsage: true } : {}),
    ...(options.currency ? { currency: options.currency } : {}),
  });
  if (options.objective) view.objective(options.objective);
  // An answer waits until it is known whether an output guardrail blocked it: then only the block is printed.
  const gate = new AnswerGate();
  for await (const event of run) for (const { item, withheld } of gate.push(event)) if (!withheld) view.render(item);
  for (const { item, withheld } of gate.flush()) if (!withheld) view.render(item);
  const result = await run.result();
  view.summary(result);
  return result;
}
