import { runAgent } from '../invocation/run-agent.js';
import type { AgentEvent, Interrupt } from '../events/agent-event.js';
import { RunAbortedError } from '../errors/run-errors.js';
import type { Agent } from '../invocation/agent.js';
import { abortErrorOf } from '../errors/abort.js';
import { AsyncQueue } from '../invocation/async-queue.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { RunInterruptedSignal } from '../invocation/run-interrupted.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-options.js';

interface Delivery {
  readonly event: AgentEvent;
  readonly stored: () => void;
}

/**
 * Runs its sub-agents at once, each on its own branch (siblings do not see each other's events).
 * Events are stored as they arrive. A failing child stops its siblings; an interrupting child
 * lets them finish, then the run ends `interrupted` with every interrupt raised.
 */
export class ParallelAgent extends WorkflowAgent {
  constructor(options: WorkflowAgentOptions) {
    super('ParallelAgent', options);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const cursor = ctx.lastAgentState();
    if (cursor?.state.done) return;
    let scopeStart: number;
    if (cursor) scopeStart = cursor.index + 1;
    else {
      yield ctx.event({ actions: { agentState: { started: true } } });
      scopeStart = ctx.events.length;
    }
    const stop = new AbortController();
    const onParentAbort = () => stop.abort(ctx.signal.reason);
    if (ctx.signal.aborted) onParentAbort();
    else ctx.signal.addEventListener('abort', onParentAbort, { once: true });
    const groupCtx = ctx.withSignal(stop.signal);

    const queue = new AsyncQueue<Delivery>();
    const interrupts: Interrupt[] = [];
    let failure: { error: unknown } | undefined;
    let running = this.subAgents.length;
    const pump = async (agent: Agent) => {
      try {
        for await (const event of runAgent(groupCtx.child(agent, { branch: agent.name, scopeStart }))) {
          await new Promise<void>((stored) => queue.push({ event, stored }));
        }
      } catch (error) {
        if (error instanceof RunInterruptedSignal) interrupts.push(...error.interrupts);
        else if (!failure && !(error instanceof RunAbortedError && !ctx.signal.aborted)) {
          failure = { error };
          stop.abort(error);
        }
      } finally {
        if (--running === 0) queue.close();
      }
    };
    for (const agent of this.subAgents) void pump(agent);
    try {
      for (let d = await queue.next(); d; d = await queue.next()) {
        yield d.event;
        d.stored();
      }
    } finally {
      ctx.signal.removeEventListener('abort', onParentAbort);
    }
    if (failure) throw failure.error;
    if (ctx.signal.aborted) throw abortErrorOf(ctx.signal);
    if (interrupts.length) throw new RunInterruptedSignal(interrupts);
    yield ctx.event({ actions: { agentState: { done: true } } });
  }
}
