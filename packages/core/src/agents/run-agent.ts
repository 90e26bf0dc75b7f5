import type { AgentEvent } from '../events/agent-event.js';
import type { RunObservation } from '../observe/run-observation.js';
import type { InvocationContext } from './invocation-context.js';

/**
 * Runs `ctx.agent` in `ctx`, reporting its start and end to the run's observers. Parent agents
 * run their sub-agents through it; with no observer it is `ctx.agent.run(ctx)` itself.
 */
export function runAgent(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
  const observation = ctx.services.observation;
  return observation ? observedRun(ctx, observation) : ctx.agent.run(ctx);
}

async function* observedRun(ctx: InvocationContext, observation: RunObservation): AsyncGenerator<AgentEvent, void, undefined> {
  const scope = observation.agentStart(ctx);
  let failure: unknown;
  let failed = false;
  try {
    yield* ctx.agent.run(ctx);
  } catch (error) {
    failed = true;
    failure = error;
    throw error;
  } finally {
    observation.agentEnd(scope, failed ? failure : undefined);
  }
}
