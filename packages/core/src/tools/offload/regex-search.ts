import { Worker } from 'node:worker_threads';
import { InvalidArgumentError } from '../../errors/replan-error.js';

/** Longest `/pattern/` the model may write: longer ones are refused before anything runs. */
export const MAX_PATTERN_LENGTH = 1000;
/** How long one regex search may run before its worker is stopped and the model told to simplify. */
export const REGEX_SEARCH_DEADLINE_MS = 2000;

/**
 * Runs in a worker: a model-written regex can backtrack for minutes (`/(a+)+$/`), and JavaScript's
 * engine cannot be interrupted, so it must never run on the thread that runs every session.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
const lines = workerData.text.split('\\n');
const hits = [];
for (let i = 0; i < lines.length; i++) {
  const at = lines[i].search(regex);
  if (at >= 0) hits.push(i, at);
}
parentPort.postMessage(hits);
`;

/** A line that matched: its index and where in it the match starts. */
export interface LineHit {
  readonly line: number;
  readonly at: number;
}

/**
 * Compiles `source`/`flags` (a syntax error or an over-long pattern is an {@link InvalidArgumentError}
 * the model is shown), then finds the first match of each line of `text` in a worker thread. A search
 * still running after `deadlineMs` is stopped and answered with an {@link InvalidArgumentError}, so a
 * catastrophic pattern costs one worker for the deadline, never the process.
 */
export async function searchLinesByRegex(
  text: string,
  pattern: string,
  source: string,
  flags: string,
  signal?: AbortSignal,
  deadlineMs = REGEX_SEARCH_DEADLINE_MS,
): Promise<LineHit[]> {
  if (source.length > MAX_PATTERN_LENGTH)
    throw new InvalidArgumentError(
      `The regular expression is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed. Write a shorter pattern or a substring.`,
    );
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new InvalidArgumentError(
      `"${pattern.slice(0, 200)}" is not a valid regular expression: ${(error as Error).message}. Write a substring, or /pattern/flags.`,
    );
  }
  signal?.throwIfAborted();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { text, source, flags } });
  try {
    const hits = await new Promise<number[]>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        settle();
        reject(
          new InvalidArgumentError(
            `The regular expression ${JSON.stringify(pattern.slice(0, 200))} ran for more than ${deadlineMs} ms and was stopped (nested or overlapping repetition such as (a+)+ backtracks without end). Write a simpler pattern or a substring.`,
          ),
        );
      }, deadlineMs);
      const onAbort = () => {
        settle();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (message: number[]) => {
        settle();
        resolve(message);
      });
      worker.once('error', (error) => {
        settle();
        reject(error);
      });
      worker.once('exit', (code) => {
        settle();
        reject(new Error(`The regular expression search stopped unexpectedly (exit code ${code}).`));
      });
    });
    const found: LineHit[] = [];
    for (let i = 0; i < hits.length; i += 2) found.push({ line: hits[i] as number, at: hits[i + 1] as number });
    return found;
  } finally {
    void worker.terminate();
  }
}
