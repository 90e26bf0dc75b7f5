import { runAgent } from '../invocation/run-agent.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Agent } from '../invocation/agent.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { WorkflowAgent, type WorkflowAgentOptions } from './workflow-options.js';

/**
 * Runs its sub-agents one after another. Before each it stores a cursor (`agentState.index`),
 * so a resumed run continues with the sub-agent that was running.
 */
export class SequentialAgent extends WorkflowAgent {
  constructor(options: WorkflowAgentOptions) {
    super('SequentialAgent', options);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const cursor = ctx.lastAgentState();
    if (cursor?.state.done) return;
    const resumeAt = typeof cursor?.state.index === 'number' ? cursor.state.index : -1;
    for (let i = Math.max(resumeAt, 0); i < this.subAgents.length; i++) {
      const agent = this.subAgents[i] as Agent;
      let scopeStart: number;
      if (i === resumeAt && cursor) scopeStart = cursor.index + 1;
      else {
        yield ctx.event({ actions: { agentState: { index: i, agent: agent.name } } });
        scopeStart = ctx.events.length;
      }
      yield* runAgent(ctx.child(agent, { scopeStart }));
    }
    yield ctx.event({ actions: { agentState: { index: this.subAgents.length, done: true } } });
  }
}
