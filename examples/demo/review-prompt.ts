/**
 * `pnpm demo --review`: the plan review answered in the terminal. The parsing is kept apart from
 * the terminal (`ask` is any question-to-line function) so a test can drive the whole dialog.
 */
import { createInterface } from 'node:readline';
import type { PlanReviewAnswer } from '@replan/planexecute';

/** Asks one question and resolves with the line typed (node:readline's `question`, or a script in a test). */
export type Ask = (question: string) => Promise<string>;

/** stdin ended (Ctrl+D) before an answer: the review stays open in the session. */
export class ReviewInputClosedError extends Error {
  constructor() {
    super('stdin closed before the plan review was answered: the review stays open; answer it with runner.resume');
    this.name = 'ReviewInputClosedError';
  }
}

/**
 * An `Ask` over a terminal (or any stream) that queues the lines typed ahead: a plan pasted in
 * one go arrives as several lines before the next question is asked, and none may be lost.
 * Rejects with `ReviewInputClosedError` once the input ends.
 */
export function lineAsker(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): { ask: Ask; close: () => void } {
  const terminal = createInterface({ input, output });
  const typed: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  terminal.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else typed.push(line);
  });
  terminal.on('close', () => {
    closed = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  const ask: Ask = (question) => {
    const line = typed.shift();
    // A line typed ahead answers at once: show it after its question, as if typed there.
    if (line !== undefined) {
      output.write(`${question}${line}\n`);
      return Promise.resolve(line);
    }
    terminal.setPrompt(question);
    terminal.prompt();
    if (closed) return Promise.reject(new ReviewInputClosedError());
    return new Promise((resolve, reject) =>
      waiting.push((next) => (next === undefined ? reject(new ReviewInputClosedError()) : resolve(next))),
    );
  };
  return { ask, close: () => terminal.close() };
}

/** The choice a line names: `a`/`approve`, `e`/`edit`, `r`/`reject` (any case); `undefined` for anything else. */
export function reviewChoice(line: string): 'approve' | 'edit' | 'reject' | undefined {
  const word = line.trim().toLowerCase();
  if (word === 'a' || word === 'approve') return 'approve';
  if (word === 'e' || word === 'edit') return 'edit';
  if (word === 'r' || word === 'reject') return 'reject';
  return undefined;
}

/** An edit from lines typed one step per line (blank lines dropped); `undefined` when no step is left. */
export function editAnswer(lines: readonly string[]): PlanReviewAnswer<{ steps: string[] }> | undefined {
  const steps = lines.map((l) => l.trim()).filter((l) => l.length > 0);
  return steps.length ? { edit: { steps } } : undefined;
}

/** A rejection with the feedback typed; `undefined` when it is blank (a rejection needs feedback). */
export function rejectAnswer(line: string): PlanReviewAnswer | undefined {
  const feedback = line.trim();
  return feedback ? { reject: feedback } : undefined;
}

/**
 * Asks until it has an answer: approve, edit (the new plan one step per line, an empty line ends
 * it) or reject (one line of feedback). A line it does not understand asks again.
 */
export async function askReview(ask: Ask): Promise<PlanReviewAnswer> {
  for (;;) {
    const choice = reviewChoice(await ask('Answer the plan review: [a]pprove, [e]dit or [r]eject? '));
    if (choice === 'approve') return { approve: true };
    if (choice === 'edit') {
      const lines: string[] = [];
      console.log('Type the plan, one step per line; an empty line ends it.');
      for (let line = await ask('  step: '); line.trim(); line = await ask('  step: ')) lines.push(line);
      const edit = editAnswer(lines);
      if (edit) return edit;
      console.log('An edited plan needs at least one step.');
    } else if (choice === 'reject') {
      const reject = rejectAnswer(await ask('Feedback for the planner: '));
      if (reject) return reject;
      console.log('A rejection needs feedback: say what the planner should do differently.');
    } else console.log('Type a, e or r.');
  }
}
