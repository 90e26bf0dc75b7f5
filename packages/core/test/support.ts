import type { AgentEvent, Run, RunResult } from '@replan/core';

/** Drains a run, returning its events (partial ones included) and its result. */
export async function collect(run: Run): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result() };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
