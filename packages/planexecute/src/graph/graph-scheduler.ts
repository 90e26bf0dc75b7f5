import pLimit from 'p-limit';
import { BudgetExceededError, ReplayError, RunAbortedError, type AgentEvent, type Interrupt } from '@replan/core';
import { abortErrorOf, AsyncQueue, RunInterruptedSignal } from '@replan/core/agent-kit';
import type { GraphStep } from './graph-plan.js';
import { isReserveStop } from '../budget/budget-answer.js';

/** What the scheduler hands its consumer, one at a time; the step waits until the consumer asks for the next one. */
export type ScheduledDelivery =
  | { readonly kind: 'event'; readonly step: GraphStep; readonly event: AgentEvent }
  /** The step's run ended in error: no new step starts, running ones are awaited. */
  | { readonly kind: 'failed'; readonly step: GraphStep; readonly error: unknown }
  /** An event of the feed (the streaming planner's), to store as it is. */
  | { readonly kind: 'feed'; readonly event: AgentEvent };

/**
 * What a feed hands the scheduler while it runs: an event to store (the feed waits until it is
 * taken), or steps to add to the graph (they start as soon as their dependencies are done).
 */
export type ScheduleFeedItem =
  | { readonly kind: 'event'; readonly event: AgentEvent }
  | { readonly kind: 'steps'; readonly steps: readonly GraphStep[] };

export interface ScheduleOptions {
  /** The steps still to run (their dependencies are among them or in `succeeded`). */
  readonly pending: readonly GraphStep[];
  /** Ids of steps that already finished with a result. */
  readonly succeeded: ReadonlySet<string>;
  /** Most steps running at once. */
  readonly concurrency: number;
  readonly signal: AbortSignal;
  /** Runs one step; ending normally completes it, throwing fails it. */
  readonly runStep: (step: GraphStep, signal: AbortSignal) => AsyncIterable<AgentEvent>;
  /** Ids of steps that already failed: nothing starts (running is left to the replanner). */
  readonly failed?: ReadonlySet<string>;
  /**
   * More steps while the graph runs (the streaming planner): read until it ends, with the signal
   * that stops the graph. The schedule ends when the feed has ended and no step runs; a feed
   * error stops new starts, running steps are awaited, then it is thrown.
   */
  readonly feed?: (signal: AbortSignal) => AsyncIterable<ScheduleFeedItem>;
  /**
   * True once the run's budget is under its reserve (`limits.onExhausted: 'answer'`): no step starts
   * from then on. Running steps are not aborted: each stops at its next model call (refused for the
   * reserve), so what it already did is stored; such a step is not run, and the schedule ends.
   */
  readonly underReserve?: () => boolean;
}

type Item =
  | { readonly delivery: ScheduledDelivery; readonly taken: () => void }
  | { readonly end: GraphStep; readonly ok: boolean }
  | { readonly arrived: readonly GraphStep[] }
  | { readonly feedEnd: true; readonly failure?: { readonly error: unknown } };

/** Errors that stop the whole run (an abort, a budget, an interrupt, a replay mismatch) rather than fail one step. */
const isRunStop = (error: unknown, signal: AbortSignal) =>
  signal.aborted ||
  error instanceof RunInterruptedSignal ||
  error instanceof BudgetExceededError ||
  error instanceof RunAbortedError ||
  error instanceof ReplayError;

/**
 * Runs a dependency graph: every step whose dependencies have finished starts at once (at most
 * `concurrency` running, p-limit), and a step's dependents start as soon as the consumer has
 * taken its last event — so they see its stored result. Driven by promise resolution only: each
 * step pushes its events into a queue and waits until the consumer takes them (the consumer
 * stores an event before asking for the next, so events are stored in order as they happen).
 *
 * A failed step stops new starts; running steps are awaited; then the generator returns. A run
 * stop (abort, budget, interrupt) does the same and then throws it (interrupts all together).
 */
export async function* scheduleGraph(options: ScheduleOptions): AsyncGenerator<ScheduledDelivery, void, undefined> {
  const { concurrency } = options;
  const pending = [...options.pending];
  const succeeded = new Set(options.succeeded);
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  const queue = new AsyncQueue<Item>();
  const limit = pLimit(concurrency);
  const started = new Set<string>();
  const interrupts: Interrupt[] = [];
  let runStop: { error: unknown } | undefined;
  let halted = (options.failed?.size ?? 0) > 0; // after a failure or a run stop: nothing new starts
  let outstanding = 0;
  let feeding = options.feed !== undefined;
  let feedFailure: { error: unknown } | undefined;

  const pump = async (step: GraphStep) => {
    let ok = false;
    try {
      if (halted || options.underReserve?.()) return; // was waiting for a slot when a sibling failed or the budget ran low
      for await (const event of options.runStep(step, stop.signal))
        await new Promise<void>((taken) => queue.push({ delivery: { kind: 'event', step, event }, taken }));
      ok = true;
    } catch (error) {
      halted = true;
      if (isReserveStop(error)) return; // the step stops unfinished, no failure: the replanner answers
      if (error instanceof RunInterruptedSignal) interrupts.push(...error.interrupts);
      else if (isRunStop(error, stop.signal)) runStop ??= { error: stop.signal.aborted ? abortErrorOf(stop.signal) : error };
      else await new Promise<void>((taken) => queue.push({ delivery: { kind: 'failed', step, error }, taken }));
    } finally {
      queue.push({ end: step, ok });
    }
  };
  const startReady = () => {
    if (!halted && options.underReserve?.()) halted = true;
    if (halted) return;
    for (const step of pending) {
      if (started.has(step.id) || !step.dependsOn.every((d) => succeeded.has(d))) continue;
      started.add(step.id);
      outstanding++;
      void limit(() => pump(step));
    }
  };

  const readFeed = async (feed: AsyncIterable<ScheduleFeedItem>) => {
    try {
      for await (const item of feed) {
        if (item.kind === 'steps') queue.push({ arrived: item.steps });
        else await new Promise<void>((taken) => queue.push({ delivery: { kind: 'feed', event: item.event }, taken }));
      }
      queue.push({ feedEnd: true });
    } catch (error) {
      queue.push({ feedEnd: true, failure: { error } });
    }
  };

  try {
    if (options.feed) void readFeed(options.feed(stop.signal));
    startReady();
    while (outstanding > 0 || feeding) {
      const item = (await queue.next()) as Item;
      if ('delivery' in item) {
        yield item.delivery;
        item.taken();
        continue;
      }
      if ('arrived' in item) {
        pending.push(...item.arrived);
        startReady();
        continue;
      }
      if ('feedEnd' in item) {
        feeding = false;
        if (item.failure) {
          halted = true;
          feedFailure = item.failure;
        }
        continue;
      }
      outstanding--;
      if (item.ok) {
        succeeded.add(item.end.id);
        startReady();
      }
    }
  } finally {
    // Also reached when the consumer stops early (a store failure): stop every running step.
    options.signal.removeEventListener('abort', onAbort);
    if (outstanding > 0 || feeding) stop.abort(new RunAbortedError('the graph executor stopped'));
  }
  if (runStop) throw runStop.error;
  if (feedFailure) throw feedFailure.error;
  if (interrupts.length) throw new RunInterruptedSignal(interrupts);
}
