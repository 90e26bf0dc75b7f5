import type { Guardrails } from './guardrail.js';
import type { AgentEvent, Interrupt } from '../events/agent-event.js';
import type { InvocationContext, RunnableAgent } from './invocation-context.js';
import type { Tool } from '../tools/tool.js';

/**
 * An agent: anything that turns an invocation context into a stream of events. Events it yields
 * are stored by the runner before the generator resumes, so after `yield` the event is in
 * `ctx.events` and its state delta is in `ctx.state`.
 */
export interface Agent extends RunnableAgent {
  readonly name: string;
  readonly description: string;
  readonly subAgents?: readonly Agent[];
  /** Checks on the run's input and final output, applied by the runner when this agent is the one a run starts. */
  readonly guardrails?: Guardrails | undefined;
  /**
   * True when this agent, as the one a run starts, can answer from partial work when the budget runs
   * low (`limits.onExhausted: 'answer'`; a plan–execute agent with its own replanner). A run with
   * `'answer'` refuses any other root agent (`ConfigurationError`): it would only stop earlier.
   */
  readonly answersOnExhausted?: boolean;
  run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined>;
  /**
   * Checks an answer to an interrupt this agent stored (`interrupt.path` is this agent's path)
   * when `runner.resume` is given it, before anything is stored or run: throw a typed error (e.g.
   * `ResumeError.invalidValue(interrupt.id, 'it must be a number')`) to refuse it, and the interrupt stays open. `state` is the
   * session's state as stored.
   */
  checkResumeValue?(interrupt: Interrupt, value: unknown, state: Readonly<Record<string, unknown>>): void;
  /**
   * The tool of this agent named `name`, if it has one: how compensation (`tool({ compensate })`)
   * finds the tool of a stored call, also in a new process. ReActAgent and the plan–execute
   * executors have it; a custom agent that runs tools gives it to make them compensable.
   */
  toolNamed?(name: string): Tool | undefined;
}
