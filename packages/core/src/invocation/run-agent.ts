import type { AgentEvent } from '../events/agent-event.js';
import type { RunObservation } from '../observe/run-observation.js';
import type { AgentScope } from '../observe/run-observer.js';
import type { InvocationContext } from './invocation-context.js';

/**
 * Runs `ctx.agent` in `ctx`, reporting its start and end to the run's observers. Parent agents
 * run their sub-agents through it; with no observer it is `ctx.agent.run(ctx)` itself.
 */
export function runAgent(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
  const observation = ctx.services.observation;
  return observation ? new ObservedAgentRun(ctx, observation) : ctx.agent.run(ctx);
}

type Step = IteratorResult<AgentEvent, void>;

/**
 * An agent's run that reports its start (when first pulled, as a generator starts) and its end
 * (done, thrown, or closed early by its consumer). A hand-written iterator rather than an
 * `async function*` around `yield*`: every event would otherwise pass through one more generator,
 * which costs more per event than all the observer bookkeeping together.
 */
class ObservedAgentRun implements AsyncGenerator<AgentEvent, void, undefined> {
  private inner: AsyncGenerator<AgentEvent, void, undefined> | undefined;
  private scope: AgentScope | undefined;

  constructor(
    private readonly ctx: InvocationContext,
    private readonly observation: RunObservation,
  ) {}

  next(): Promise<Step> {
    if (!this.inner) {
      this.scope = this.observation.agentStart(this.ctx);
      try {
        this.inner = this.ctx.agent.run(this.ctx);
      } catch (error) {
        return this.failed(error);
      }
    }
    return this.settle(this.inner.next());
  }

  return(value?: void | PromiseLike<void>): Promise<Step> {
    if (!this.inner) return Promise.resolve({ done: true, value: undefined });
    return this.settle(this.inner.return(value as void));
  }

  throw(error: unknown): Promise<Step> {
    if (!this.inner) return Promise.reject(error);
    return this.settle(this.inner.throw(error));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  // Made once per agent run, not once per event: `settle` runs on every event.
  private readonly stepped = (result: Step): Step => {
    if (result.done) this.end();
    return result;
  };
  private readonly threw = (error: unknown): Promise<never> => this.failed(error);

  private settle(step: Promise<Step>): Promise<Step> {
    return step.then(this.stepped, this.threw);
  }

  private failed(error: unknown): Promise<never> {
    this.end(error, true);
    return Promise.reject(error);
  }

  /** Reports the end once (a generator that ended answers later calls with `done` again). */
  private end(error?: unknown, failed = false): void {
    const scope = this.scope;
    if (!scope) return;
    this.scope = undefined;
    this.observation.agentEnd(scope, failed ? error : undefined);
  }
}
