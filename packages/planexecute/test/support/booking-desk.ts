import { z } from 'zod';
import { type AgentEvent, type Middleware, tool } from '@replan/core';
import { ScriptedModel, type ScriptedReply, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { TaskModel } from '../graph-support.js';
import { planCall, runnerFor } from '../support.js';

/**
 * Booking tools whose runs and compensations are logged in order; `failing` compensations throw; the
 * first compensation of the `stall`ed booking never ends (a process that died in it).
 */
export function desk() {
  const log: string[] = [];
  const failing = new Set<string>();
  let stalled: string | undefined;
  const book = (kind: string) =>
    tool({
      name: `book_${kind}`,
      description: `Books a ${kind}.`,
      parameters: z.object({ what: z.string() }),
      execute: ({ what }) => {
        log.push(`book ${kind} ${what}`);
        return { ref: `${kind}:${what}` };
      },
      compensate: async ({ what }, result) => {
        if (stalled === what) {
          stalled = undefined;
          await new Promise(() => undefined);
        }
        log.push(`cancel ${kind} ${what} (${(result as { ref: string }).ref})`);
        if (failing.has(what)) throw new Error(`${what} cannot be cancelled`);
        return `cancelled ${what}`;
      },
    });
  return { log, failing, stall: (what: string) => (stalled = what), tools: [book('flight'), book('hotel')] };
}

export const booking = (kind: string, what: string, id: string) => callTools({ name: `book_${kind}`, id, args: { what } });
export const undoPlan = (steps: string[], undo: string[]) => planCall(steps, { undo });

export function agentFor(
  mode: 'linear' | 'graph',
  d: ReturnType<typeof desk>,
  script: { planner: ScriptedReply[]; steps: Record<string, ScriptedReply[]>; replanner: ScriptedReply[] },
  extra: {
    compensateDropped?: boolean;
    stepMaxIterations?: number;
    hold?: (task: string, call: number) => Promise<void> | undefined;
    strictPlan?: boolean;
    middleware?: Middleware[];
  } = {},
) {
  const replanner = new ScriptedModel({ responses: script.replanner });
  const steps = new TaskModel(script.steps, extra.hold ? { hold: extra.hold } : {});
  // A plan schema of one's own that refuses unknown fields: `undo` is not the plan's.
  const strict = extra.strictPlan ? { planSchema: z.strictObject({ steps: z.array(z.string()) }) } : {};
  const agent = createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: new ScriptedModel({ responses: script.planner }), ...strict }),
    executor: createExecutor({
      model: steps,
      tools: d.tools,
      maxIterations: extra.stepMaxIterations ?? 10,
      ...(extra.middleware ? { middleware: extra.middleware } : {}),
    }),
    replanner: createReplanner({ model: replanner, ...strict }),
    ...(extra.compensateDropped ? { compensateDropped: true } : {}),
  });
  return { replanner, ...runnerFor(agent) };
}

export const compensations = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.meta?.kind === 'compensation' && e.message?.role === 'tool' ? [e.message.content[0]] : []));
