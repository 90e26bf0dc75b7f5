import { runAgent } from '../invocation/run-agent.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { MaxIterationsError } from '../errors/run-errors.js';
import type { Agent } from '../invocation/agent.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-options.js';

export interface LoopAgentOptions extends WorkflowAgentOptions {
  /** Most passes over the sub-agents; unset means until a sub-agent sets `exitLoop`. */
  readonly maxIterations?: number;
  /**
   * When the loop must end by `exitLoop` (e.g. with an answer): running out of iterations then
   * fails with `MaxIterationsError` (run status `max_iterations`) instead of completing.
   */
  readonly requireExit?: boolean;
}

/**
 * Runs its sub-agents in order, again and again, until one emits `exitLoop` or `maxIterations`
 * passes are done. Stores a cursor (`agentState.iteration`, `agentState.index`) before each step.
 */
export class LoopAgent extends WorkflowAgent {
  readonly maxIterations: number | undefined;
  private readonly requireExit: boolean;

  constructor(options: LoopAgentOptions) {
    super('LoopAgent', options);
    if (options.maxIterations !== undefined && (!Number.isInteger(options.maxIterations) || options.maxIterations < 1))
      throw new ConfigurationError(`LoopAgent "${options.name}": maxIterations must be a positive integer.`);
    this.maxIterations = options.maxIterations;
    this.requireExit = options.requireExit ?? false;
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const cursor = ctx.lastAgentState();
    if (cursor?.state.done) return;
    let iteration = typeof cursor?.state.iteration === 'number' ? cursor.state.iteration : 0;
    let index = typeof cursor?.state.index === 'number' ? cursor.state.index : 0;
    let resumeScope = cursor ? cursor.index + 1 : undefined;
    const descendant = `${ctx.path}/`;
    const exits = (e: AgentEvent) => e.actions?.exitLoop === true && e.path.startsWith(descendant);
    if (resumeScope !== undefined && ctx.events.slice(resumeScope).some(exits)) {
      yield ctx.event({ actions: { agentState: { iteration, index, done: true } } });
      return;
    }
    for (; this.maxIterations === undefined || iteration < this.maxIterations; iteration++, index = 0) {
      for (; index < this.subAgents.length; index++) {
        const agent = this.subAgents[index] as Agent;
        let scopeStart: number;
        if (resumeScope !== undefined) {
          scopeStart = resumeScope;
          resumeScope = undefined;
        } else {
          yield ctx.event({ actions: { agentState: { iteration, index, agent: agent.name } } });
          scopeStart = ctx.events.length;
        }
        let exit = false;
        for await (const event of runAgent(ctx.child(agent, { scopeStart }))) {
          if (exits(event)) exit = true;
          yield event;
        }
        if (exit) {
          yield ctx.event({ actions: { agentState: { iteration, index, done: true } } });
          return;
        }
      }
    }
    if (this.requireExit) throw new MaxIterationsError(this.name, this.maxIterations ?? 0);
    yield ctx.event({ actions: { agentState: { iteration, index: 0, done: true } } });
  }
}
